export { createApp, health, tools } from './app.ts';
