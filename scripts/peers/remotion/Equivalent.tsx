// The comp of examples/remotion_equivalent.py drawn by Remotion: every number comes from its
// scene() (the input props), so both renderers draw the same scene the way each is used.
import React from 'react';
import {
  AbsoluteFill, Easing, Img, continueRender, delayRender, interpolate, staticFile,
  useCurrentFrame,
} from 'remotion';

type Rect = {start: number[]; end: number[]; turn: number; color: string};
type Line = {text: string; size: number; position: number[]; fill: string};
export type Scene = {
  width: number; height: number; fps: number; duration: number; frames: number;
  gradient: string[];
  image: {center: number[]; scale: number[]; size: number[]};
  rectSize: number[]; rects: Rect[];
  title: {text: string; size: number; weight: number; position: number[]; rise: number;
          fade: number[];
          shadow: {distance: number; direction: number; softness: number; opacity: number}};
  lines: Line[];
};

// Roboto, the font rendervisor draws the text in, from the same files (copied into public/).
const fontsLoaded = delayRender('Roboto');
Promise.all([
  new FontFace('Roboto', `url(${staticFile('Roboto-Regular.ttf')})`, {weight: '400'}).load(),
  new FontFace('Roboto', `url(${staticFile('Roboto-Bold.ttf')})`, {weight: '700'}).load(),
]).then((faces) => {
  faces.forEach((face) => document.fonts.add(face));
  continueRender(fontsLoaded);
});

// Text is placed as rendervisor places left-aligned text: x at its left edge, y at the
// middle of the line.
const textStyle = (size: number, x: number, y: number): React.CSSProperties => ({
  position: 'absolute', left: x, top: y, transform: 'translateY(-50%)',
  fontFamily: 'Roboto', fontSize: size, lineHeight: 1.2, whiteSpace: 'pre',
});

export const Equivalent: React.FC<Scene> = (scene) => {
  const frame = useCurrentFrame();
  const time = frame / scene.fps;
  const progress = time / scene.duration;
  const [w, h] = scene.rectSize;
  const [iw, ih] = scene.image.size;
  const scale = interpolate(progress, [0, 1], scene.image.scale) / 100;
  const title = scene.title;
  const fade = interpolate(time, title.fade, [0, 1], {
    easing: Easing.out(Easing.cubic), extrapolateLeft: 'clamp', extrapolateRight: 'clamp',
  });
  const shadow = title.shadow;
  const angle = (shadow.direction * Math.PI) / 180;
  // softness is twice the sigma, as a CSS blur radius is.
  const textShadow = `${shadow.distance * Math.sin(angle)}px ${-shadow.distance * Math.cos(angle)}px ` +
    `${shadow.softness}px rgba(0, 0, 0, ${shadow.opacity / 100})`;
  return (
    <AbsoluteFill style={{
      background: `linear-gradient(to bottom right, ${scene.gradient[0]}, ${scene.gradient[1]})`,
    }}>
      <Img src={staticFile('bench_image.png')} style={{
        position: 'absolute', left: scene.image.center[0] - iw / 2,
        top: scene.image.center[1] - ih / 2, width: iw, height: ih,
        transform: `scale(${scale})`,
      }} />
      {scene.rects.map((rect, index) => (
        <div key={index} style={{
          position: 'absolute', width: w, height: h, background: rect.color,
          left: interpolate(progress, [0, 1], [rect.start[0], rect.end[0]]) - w / 2,
          top: interpolate(progress, [0, 1], [rect.start[1], rect.end[1]]) - h / 2,
          transform: `rotate(${rect.turn * progress}deg)`,
        }} />
      ))}
      {scene.lines.map((line, index) => (
        <div key={index} style={{...textStyle(line.size, line.position[0], line.position[1]),
                                 color: line.fill}}>{line.text}</div>
      ))}
      <div style={{
        ...textStyle(title.size, title.position[0],
                     title.position[1] + title.rise * (1 - fade)),
        color: '#ffffff', fontWeight: title.weight, opacity: fade, textShadow,
      }}>{title.text}</div>
    </AbsoluteFill>
  );
};
