import { siteTools } from '@quire/catalog';
import { workflowTools } from '@quire/catalog/site';
import { describe, expect, it } from 'vitest';
import {
  checkSteps,
  choices,
  duplicateStep,
  madeBy,
  moveStep,
  newStep,
  offered,
  removeStep,
  stepProblem,
  stepsFrom,
} from './chain.ts';

const catalog = siteTools();
const ids = (steps: { tool: string }[]) => steps.map((s) => s.tool);

describe('which tools the builder offers', () => {
  it('offers every catalog tool, the spec’s workflow tools first and in their order', () => {
    const list = offered(catalog).map((t) => t.id);
    expect(list.slice(0, workflowTools.length)).toEqual([...workflowTools]);
    expect([...list].sort()).toEqual(catalog.map((t) => t.id).sort());
  });

  it('lets any file tool come first, and says why a web-address tool cannot', () => {
    const first = choices(catalog, []);
    expect(first.find((c) => c.tool.id === 'word-to-pdf')!.unfit).toBeUndefined();
    expect(first.find((c) => c.tool.id === 'pdf-merge')!.unfit).toBeUndefined();
    expect(first.find((c) => c.tool.id === 'pdf-from-url')!.unfit).toEqual({ reason: 'webAddress' });
    // protect-pdf needs the password its result is locked with, which a workflow never keeps.
    expect(first.find((c) => c.tool.id === 'protect-pdf')!.unfit).toEqual({ reason: 'password' });
  });

  it('after a step, offers only the tools that read what it makes, and says why the others cannot follow', () => {
    const after = choices(catalog, stepsFrom(['word-to-pdf']));
    const fits = after.filter((c) => !c.unfit).map((c) => c.tool.id);
    expect(fits).toContain('add-page-numbers');
    expect(fits).not.toContain('word-to-pdf');
    expect(after.find((c) => c.tool.id === 'pdf-merge')!.unfit).toEqual({ reason: 'severalFiles' });
    expect(after.find((c) => c.tool.id === 'excel-to-pdf')!.unfit).toEqual({
      reason: 'kind',
      kind: 'pdf',
      after: 'word-to-pdf',
    });
    expect(after.find((c) => c.tool.id === 'word-to-pdf')!.unfit).toEqual({
      reason: 'kind',
      kind: 'pdf',
      after: 'word-to-pdf',
    });
    // A tool that fits but is a step already is not offered again (the step's Duplicate button adds it).
    const compressed = choices(catalog, stepsFrom(['pdf-compress']));
    expect(compressed.find((c) => c.tool.id === 'pdf-compress')!.unfit).toEqual({ reason: 'already' });
    // The ones that fit come first.
    expect(after.findIndex((c) => c.unfit)).toBe(fits.length);
    // The catalog's own check takes every tool offered as fitting (some once their options are given).
    for (const id of fits) {
      const checked = checkSteps(stepsFrom(['word-to-pdf', id]));
      expect(checked.ok || checked.message, id).toSatisfy((r) => r === true || /needs options/.test(String(r)));
    }
    expect(checkSteps(stepsFrom(['word-to-pdf', 'excel-to-pdf'])).ok).toBe(false);
  });

  it('follows what a step makes with its options (PDF to text makes Markdown or text)', () => {
    expect(madeBy(stepsFrom(['pdf-split']))).toBe('zip');
    const toText = stepsFrom([{ tool: 'pdf-to-text', options: { format: 'md' } }]);
    expect(madeBy(toText)).toBe('md');
    expect(madeBy(stepsFrom(['pdf-to-text']))).toBe('txt');
  });
});

describe('a step where it stands', () => {
  it('is at fault when it cannot read what the step before makes, or an option is not valid', () => {
    const steps = stepsFrom(['pdf-split', 'pdf-compress']);
    expect(stepProblem(steps, 0, catalog)).toBeUndefined();
    expect(stepProblem(steps, 1, catalog)).toEqual({ reason: 'kind', kind: 'zip', after: 'pdf-split' });
    const bad = stepsFrom([{ tool: 'add-watermark', options: { opacity: '7' } }]);
    expect(stepProblem(bad, 0, catalog)).toEqual({ reason: 'option', option: 'opacity' });
    expect(checkSteps(bad).ok).toBe(false);
  });

  it('organize-pdf fits once its plan is given', () => {
    expect(stepProblem(stepsFrom(['organize-pdf']), 0, catalog)).toEqual({ reason: 'option', option: 'plan' });
    expect(stepProblem(stepsFrom([{ tool: 'organize-pdf', options: { plan: '2,1' } }]), 0, catalog)).toBeUndefined();
  });
});

describe('moving, removing and copying steps', () => {
  const steps = [newStep('word-to-pdf'), newStep('add-page-numbers'), newStep('pdf-compress')];

  it('moves a step up or down, and not past either end', () => {
    expect(ids(moveStep(steps, 2, -1))).toEqual(['word-to-pdf', 'pdf-compress', 'add-page-numbers']);
    expect(ids(moveStep(steps, 0, 1))).toEqual(['add-page-numbers', 'word-to-pdf', 'pdf-compress']);
    expect(ids(moveStep(steps, 0, -1))).toEqual(ids(steps));
    expect(ids(moveStep(steps, 2, 1))).toEqual(ids(steps));
  });

  it('removes one step, and copies one with its options right after it under a key of its own', () => {
    expect(ids(removeStep(steps, 1))).toEqual(['word-to-pdf', 'pdf-compress']);
    const marked = [steps[0]!, { ...steps[1]!, options: { format: 'roman-upper' } }];
    const copied = duplicateStep(marked, 1);
    expect(ids(copied)).toEqual(['word-to-pdf', 'add-page-numbers', 'add-page-numbers']);
    expect(copied[2]!.options).toEqual({ format: 'roman-upper' });
    expect(copied[2]!.options).not.toBe(copied[1]!.options);
    expect(new Set(copied.map((s) => s.key)).size).toBe(3);
  });
});
