// The entry Remotion's bundler starts from (scripts/bench_remotion.py copies this folder into
// a temporary project as src/).
import {registerRoot} from 'remotion';
import {Root} from './Root';

registerRoot(Root);
