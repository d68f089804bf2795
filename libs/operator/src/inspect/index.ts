export * from './inspection.types';
