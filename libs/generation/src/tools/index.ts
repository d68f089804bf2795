export { createMediaTools } from './create-media-tools';
export { imageGenerateTool, imageEditTool, type ImageGenerateInput, type ImageEditInput } from './image-tools';
export { videoGenerateTool, type VideoGenerateInput } from './video-generate-tool';
export { model3dGenerateTool, type Model3dGenerateInput } from './model-3d-tool';
export { audioGenerateTool, type AudioGenerateInput } from './audio-generate-tool';
export { generationStatusTool, GENERATION_JOB_NOT_FOUND, type GenerationStatusInput } from './generation-status-tool';
export { mediaTool, type MediaOrder, type MediaToolSpec } from './media-tool';
export { formatMinor, pendingJobNote } from './job-note';
export * from './media-limits';
