import type { ToolDefinition } from '@lomo/tools';
import type { GenerationRequests } from '../service/generation-requests.port';
import { audioGenerateTool } from './audio-generate-tool';
import { generationStatusTool } from './generation-status-tool';
import { imageEditTool, imageGenerateTool } from './image-tools';
import { model3dGenerateTool } from './model-3d-tool';
import { videoGenerateTool } from './video-generate-tool';

/** Every media tool plus generation.status, all over one GenerationRequests (the service or a fake). */
export function createMediaTools(requests: GenerationRequests): ToolDefinition[] {
  return [
    imageGenerateTool(requests),
    imageEditTool(requests),
    videoGenerateTool(requests),
    model3dGenerateTool(requests),
    audioGenerateTool(requests),
    generationStatusTool(requests),
  ] as ToolDefinition[];
}
