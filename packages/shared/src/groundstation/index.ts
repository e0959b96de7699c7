export * from './api.js';
export * from './client.js';
export * from './schemas.js';
