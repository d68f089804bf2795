export * from './crc32';
export * from './png';
export * from './wav';
export * from './gif';
export * from './gltf';
export * from './seed';
