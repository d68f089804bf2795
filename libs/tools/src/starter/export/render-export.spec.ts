import { renderExport } from './render-export';

describe('renderExport', () => {
  it('renders markdown and text with the title first', () => {
    expect(renderExport({ title: 'Plan', format: 'markdown', content: 'Step one.' })).toEqual({
      content: '# Plan\n\nStep one.\n',
      contentType: 'text/markdown',
    });
    expect(renderExport({ title: 'Plan', format: 'text', content: 'Step one.' }).contentType).toBe('text/plain');
  });

  it('escapes HTML and splits paragraphs on blank lines', () => {
    const html = renderExport({ title: '<Plan & "ideas">', format: 'html', content: 'a < b\n\nsecond' });
    expect(html.contentType).toBe('text/html');
    expect(html.content).toContain('<h1>&lt;Plan &amp; &quot;ideas&quot;&gt;</h1>');
    expect(html.content).toContain('<p>a &lt; b</p>\n<p>second</p>');
  });

  it('is deterministic, so a repeated run stores the same blob', () => {
    const job = { title: 'T', format: 'html' as const, content: 'x\n\ny' };
    expect(renderExport(job)).toEqual(renderExport({ ...job }));
  });
});
