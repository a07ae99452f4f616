export { createApp, health, loaded, tools } from './app.ts';
