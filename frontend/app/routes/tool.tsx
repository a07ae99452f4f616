import { findTool, takesMany, tools, type Tool } from '../lib/tools.ts';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ToolCard } from '../components/ToolCard.tsx';
import { UploadWidget, type Result } from '../components/UploadWidget.tsx';
import { english } from '../i18n/dictionary.ts';
import { toolKey, useT } from '../i18n/use-t.ts';
import { downloadUrl, readableName } from '../lib/api.ts';
import { handOff } from '../lib/handoff.ts';
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

/** Where a result can go next: merge, compress and unlock. */
const nextSteps = [
  { id: 'pdf-merge', key: 'tool.nextMerge' },
  { id: 'pdf-compress', key: 'tool.nextCompress' },
  { id: 'pdf-unlock', key: 'tool.nextUnlock' },
] as const;

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
  const resultIsPdf = result?.download.toLowerCase().endsWith('.pdf');
  const faqs = [
    [t('tool.faqSafeQuestion', { label }), t('tool.faqSafeAnswer')],
    [t('tool.faqMobileQuestion'), t('tool.faqMobileAnswer')],
    [t('tool.faqManyQuestion'), t(many ? 'tool.faqManyAnswerMulti' : 'tool.faqManyAnswer')],
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
      <section aria-labelledby="next">
        <h2 id="next">{t('tool.next')}</h2>
        <ul className="next-steps">
          {nextSteps.map((step) => (
            <li key={step.id}>
              <Link
                to={`/tools/${step.id}`}
                onClick={() => {
                  if (result && resultIsPdf) handOff(downloadUrl(result.download), readableName(result.download));
                }}
              >
                {t(step.key)}
              </Link>
            </li>
          ))}
        </ul>
      </section>
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
