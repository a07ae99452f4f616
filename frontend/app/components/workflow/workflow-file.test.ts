import { describe, expect, it } from 'vitest';
import { parseWorkflow, workflowFileName, workflowJson, type WorkflowFile } from './workflow-file.ts';

const fourSteps: WorkflowFile = {
  name: 'Report for review',
  steps: [
    { tool: 'word-to-pdf' },
    { tool: 'add-page-numbers', options: { format: 'page-of-total' } },
    { tool: 'add-watermark', options: { text: 'DRAFT', opacity: 0.5 } },
    { tool: 'pdf-compress' },
  ],
};

describe('a workflow file', () => {
  it('reads back what it wrote', () => {
    const read = parseWorkflow(workflowJson(fourSteps));
    expect(read).toEqual({ ok: true, workflow: fourSteps });
  });

  it('reads the saved API answer, keeping only its name and steps, aliases as their tools', () => {
    const answer = { id: 'x'.repeat(24), link: '/workflow/saved/x', createdAt: '2026-11-27', ...fourSteps };
    answer.steps = [
      ...fourSteps.steps.slice(0, 2),
      { tool: 'watermark-pdf', options: { text: 'DRAFT', opacity: 0.5 } },
    ];
    const read = parseWorkflow(JSON.stringify(answer));
    expect(read.ok && read.workflow.steps.map((s) => s.tool)).toEqual([
      'word-to-pdf',
      'add-page-numbers',
      'add-watermark',
    ]);
    expect(read.ok && Object.keys(read.workflow)).toEqual(['name', 'steps']);
  });

  it('refuses what is not a workflow, and a chain the catalog refuses with its reason', () => {
    expect(parseWorkflow('not json').ok).toBe(false);
    expect(parseWorkflow('{"steps": "word-to-pdf"}').ok).toBe(false);
    expect(parseWorkflow('{"steps": [{"tool": "pdf-compress", "options": {"level": {"x": 1}}}]}').ok).toBe(false);
    const misfit = parseWorkflow(JSON.stringify({ steps: [{ tool: 'pdf-split' }, { tool: 'pdf-compress' }] }));
    expect(misfit).toEqual({
      ok: false,
      message: expect.stringContaining('Step 2 ("pdf-compress") cannot read the ZIP'),
    });
    const badOption = parseWorkflow(JSON.stringify({ steps: [{ tool: 'rotate-pdf', options: { angle: 45 } }] }));
    expect(badOption.ok || badOption.message).toMatch(/angle/);
  });

  it('is named after the workflow', () => {
    expect(workflowFileName('Report for review')).toBe('Report-for-review.quire-workflow.json');
    expect(workflowFileName('../../')).toBe('workflow.quire-workflow.json');
  });
});
