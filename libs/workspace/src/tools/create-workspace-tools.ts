import type { ToolDefinition } from '@lomo/tools';
import { artifactDeleteTool, artifactReferenceTool, assetListTool, assetSearchTool } from './asset-tools';
import { artifactReadTool, documentEditTool, documentReadTool, documentWriteTool } from './document-tools';
import { flowCreateTool, flowEditNodesTool, flowReadTool } from './flow-tools';
import type { WorkspaceToolDeps } from './workspace-tool-deps';

/**
 * The agent's tools over the shared workspace (domains document, flow, asset). Every ok result
 * names the artefact version read or written in a top-level `artifact` (listings excepted), and a
 * refusal is an error result with the refusal's code, the current version and what changed.
 */
export function createWorkspaceTools(deps: WorkspaceToolDeps): ToolDefinition[] {
  return [
    documentReadTool(deps),
    artifactReadTool(deps),
    documentWriteTool(deps),
    documentEditTool(deps),
    flowReadTool(deps),
    flowCreateTool(deps),
    flowEditNodesTool(deps),
    assetListTool(deps),
    assetSearchTool(deps),
    artifactReferenceTool(deps),
    artifactDeleteTool(deps),
  ] as ToolDefinition[];
}
