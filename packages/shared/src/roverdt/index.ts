export * from './client.js';
export * from './schemas.js';
