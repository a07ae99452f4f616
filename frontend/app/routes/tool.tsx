import { findTool, takesMany, takesUrl, tools, type Tool } from '../lib/tools.ts';
import { constants } from '@quire/catalog/site';
import { fileKinds } from '@quire/catalog/kinds';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ToolCard } from '../components/ToolCard.tsx';
import { UploadWidget, type Result } from '../components/UploadWidget.tsx';
import { english } from '../i18n/dictionary.ts';
import { toolKey, useT } from '../i18n/use-t.ts';
import { downloadUrl, readableName } from '../lib/api.ts';
import { handOff } from '../lib/handoff.ts';
import { resultKind, takesKind, toolsFor } from '../lib/next-tools.ts';
import { pageMeta } from '../lib/seo.ts';
import { howTo } from '../lib/structured-data.ts';
import { useUsage } from '../lib/usage.ts';

export function meta({ params }: { params: { toolId?: string } }) {
  const tool = findTool(params.toolId ?? '');
  if (!tool) {
    return pageMeta({
      title: `${english.tool.unknown} – Quire`,
      description: english.tool.unknownText,
      path: `/tools/${params.toolId ?? ''}`,
      noindex: true,
    });
  }
  return pageMeta({
    title: `${tool.name} – ${english.tool.tagline} | Quire`,
    description: `${tool.description} ${english.tool.faqSafeAnswer}`,
    path: `/tools/${tool.id}`,
    jsonLd: [howTo(tool)],
  });
}

/** The spec's next steps: merge, compress and unlock. */
const nextSteps = [
  { id: 'pdf-merge', key: 'tool.nextMerge' },
  { id: 'pdf-compress', key: 'tool.nextCompress' },
  { id: 'pdf-unlock', key: 'tool.nextUnlock' },
] as const;
const nextStepIds: readonly string[] = nextSteps.map((s) => s.id);

/**
 * "What can I do next?": the spec's three links, which carry a PDF result along; after a result, the
 * other tools that read its kind, which carry it too; before one, what the links will do.
 */
function NextSteps({ from, result }: { from: string; result: Result | undefined }) {
  const t = useT();
  const kind = result && resultKind(result.download);
  const kindLabel = kind ? fileKinds[kind].label : '';
  const carry = (next: Tool | undefined) => {
    if (result && next && takesKind(next, kind)) handOff(downloadUrl(result.download), readableName(result.download));
  };
  const specTakes = nextSteps.every((step) => takesKind(findTool(step.id)!, kind));
  const others = toolsFor(kind, from, tools).filter((tool) => !nextStepIds.includes(tool.id));
  let note = t('tool.nextBefore');
  if (result) note = specTakes ? t('tool.nextCarry') : t('tool.nextNotPdf', { kind: kindLabel });
  return (
    <section aria-labelledby="next">
      <h2 id="next">{t('tool.next')}</h2>
      <p className="next-note">{note}</p>
      <ul className="next-steps">
        {nextSteps.map((step) => (
          <li key={step.id}>
            <Link to={`/tools/${step.id}`} onClick={() => carry(findTool(step.id))}>
              {t(step.key)}
            </Link>
          </li>
        ))}
      </ul>
      {result && (
        <>
          <p className="next-note">
            {others.length > 0 ? t('tool.nextOther', { kind: kindLabel }) : t('tool.nextNone', { kind: kindLabel })}
          </p>
          {others.length > 0 && (
            <ul className="next-tools chips">
              {others.map((tool) => (
                <li key={tool.id}>
                  <Link to={`/tools/${tool.id}`} className="chip" onClick={() => carry(tool)}>
                    <span aria-hidden="true">{tool.icon}</span> {t(toolKey(tool.id, 'name'))}
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function Trending({ except }: { except?: string }) {
  const t = useT();
  const usage = useUsage();
  const top = [...tools]
    .filter((tool) => tool.id !== except)
    .sort((a, b) => b.usage - a.usage)
    .slice(0, 4);
  return (
    <section aria-labelledby="trending">
      <h2 id="trending">{t('tool.trending')}</h2>
      <div className="grid tools-grid">
        {top.map((tool) => (
          <ToolCard key={tool.id} tool={tool} uses={usage[tool.id] ?? tool.usage} />
        ))}
      </div>
    </section>
  );
}

function UnknownTool() {
  const t = useT();
  return (
    <div className="page tool-page">
      <h1>{t('tool.heading', { label: t('tool.unknown') })}</h1>
      <p>{t('tool.unknownText')}</p>
      <Trending />
    </div>
  );
}

function ToolPage({ tool }: { tool: Tool }) {
  const t = useT();
  const [result, setResult] = useState<Result>();
  const label = t(toolKey(tool.id, 'name'));
  const many = takesMany(tool);
  const faqs = [
    [t('tool.faqSafeQuestion', { label }), t('tool.faqSafeAnswer')],
    [t('tool.faqMobileQuestion'), t('tool.faqMobileAnswer')],
    [
      t('tool.faqManyQuestion'),
      many
        ? t('tool.faqManyAnswerMulti')
        : takesUrl(tool)
          ? t('tool.faqManyAnswerUrl')
          : t('tool.faqManyAnswer', { max: constants.batchMaxFiles }),
    ],
  ];
  return (
    <div className="page tool-page">
      <header className="tool-header">
        <span className="tool-icon big" aria-hidden="true">
          {tool.icon}
        </span>
        <p className="eyebrow">{t('tool.tagline')}</p>
        <h1>{t('tool.heading', { label })}</h1>
        <p>{t(toolKey(tool.id, 'description'))}</p>
      </header>
      <ol className="steps" aria-label={t('tool.stepsTitle')}>
        {(['tool.step1', 'tool.step2', 'tool.step3'] as const).map((key, i) => (
          <li key={key} id={`step-${i + 1}`}>
            {t(key)}
          </li>
        ))}
      </ol>
      <section className="widget" aria-label={label}>
        <p>{t('tool.prompt', { label })}</p>
        <UploadWidget tool={tool} onResult={setResult} />
      </section>
      <p>
        <Link to={`/blog/${tool.id}-guide`}>📖 {t('tool.guide')}</Link>
      </p>
      <NextSteps from={tool.id} result={result} />
      <section aria-labelledby="faq">
        <h2 id="faq">{t('tool.faqTitle')}</h2>
        <dl className="faq">
          {faqs.map(([q, a]) => (
            <div key={q}>
              <dt>{q}</dt>
              <dd>{a}</dd>
            </div>
          ))}
        </dl>
      </section>
      <Trending except={tool.id} />
    </div>
  );
}

export default function ToolRoute() {
  const { toolId = '' } = useParams();
  const navigate = useNavigate();
  const tool = findTool(toolId);
  // An alias shows its tool at once and then moves to the canonical address (its canonical link says so too).
  useEffect(() => {
    if (tool && tool.id !== toolId) void navigate(`/tools/${tool.id}`, { replace: true });
  }, [tool, toolId, navigate]);
  return tool ? <ToolPage key={tool.id} tool={tool} /> : <UnknownTool />;
}
