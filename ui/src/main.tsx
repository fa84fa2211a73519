import { render } from 'preact';
import './styles/index.css';
import { App } from './app';

render(<App />, document.getElementById('app')!);
