import './no-eval.ts';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { joinOf } from './join.ts';
import './style.css';

const root = createRoot(document.getElementById('root') as HTMLElement);
// `?game=ID&seat=P&token=T`: one seat of a game the server keeps (its code, with the client, loaded only then); otherwise the local table.
const join = joinOf(location.search);
if (join === null) root.render(<App />);
else void import('./Networked.tsx').then(({ Networked }) => root.render(<Networked join={join} />));
