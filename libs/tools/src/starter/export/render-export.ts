import type { ExportFormat } from './export-job.port';

export interface RenderedExport {
  content: string;
  contentType: string;
}

/** Deterministic: the same job renders to the same bytes, so a repeated run stores the same blob. */
export function renderExport(job: { title: string; format: ExportFormat; content: string }): RenderedExport {
  switch (job.format) {
    case 'markdown':
      return { content: `# ${job.title}\n\n${job.content}\n`, contentType: 'text/markdown' };
    case 'text':
      return { content: `${job.title}\n\n${job.content}\n`, contentType: 'text/plain' };
    case 'html':
      return {
        content:
          `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(job.title)}</title></head>\n` +
          `<body><h1>${escapeHtml(job.title)}</h1>\n${paragraphs(job.content)}</body></html>\n`,
        contentType: 'text/html',
      };
  }
}

const paragraphs = (text: string) =>
  text
    .split(/\n{2,}/)
    .filter((p) => p.trim() !== '')
    .map((p) => `<p>${escapeHtml(p)}</p>\n`)
    .join('');

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
