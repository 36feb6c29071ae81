import React from 'react';
import {Composition} from 'remotion';
import {Equivalent, Scene} from './Equivalent';

// The comp's size, rate and length come from the scene (examples/remotion_equivalent.py's
// scene(), passed as input props), so one bundle renders 90 frames or 300.
export const Root: React.FC = () => (
  <Composition
    id="Equivalent"
    component={Equivalent}
    width={1920}
    height={1080}
    fps={30}
    durationInFrames={90}
    defaultProps={{} as Scene}
    calculateMetadata={({props}) => ({
      width: props.width,
      height: props.height,
      fps: props.fps,
      durationInFrames: props.frames,
    })}
  />
);
