import '../../i18n/en/planner.ts';
import { useT } from '../../i18n/use-t.ts';
import { CropView } from './CropView.tsx';
import { FormFill } from './FormFill.tsx';
import { PageNumbers } from './PageNumbers.tsx';
import { PagePicker } from './PagePicker.tsx';
import { PagePlanner } from './PagePlanner.tsx';
import { RedactView } from './RedactView.tsx';
import { SignView } from './SignView.tsx';
import { useOpenedPdf } from './use-opened-pdf.ts';

/**
 * A tool's page view of the chosen PDF, opened by pdf.js: the pages to plan, to mark, to crop or to redact, or its form to fill. It reads
 * the form's fields (their defaults filled in) and writes the ones it sets.
 */
export default function PageView({
  toolId,
  file,
  password,
  onLocked,
  values,
  onChange,
  onFiles,
}: {
  toolId: string;
  file: File;
  password: string;
  onLocked: () => void;
  values: Record<string, string>;
  onChange: (changes: Record<string, string>) => void;
  /** Files the view makes for the call (sign-pdf's signature image). */
  onFiles: (files: File[]) => void;
}) {
  const t = useT();
  const pdf = useOpenedPdf(file, password, onLocked);
  if (!pdf) return <p className="note">{t('planner.loading')}</p>;
  if (!pdf.ok) return <p className="note">{t(`planner.${pdf.reason === 'password' ? 'locked' : pdf.reason}`)}</p>;
  switch (toolId) {
    case 'organize-pdf':
      return <PagePlanner pdf={pdf} plan={values.plan ?? ''} onPlan={(plan) => onChange({ plan })} />;
    case 'pdf-page-remove':
      return (
        <PagePicker pdf={pdf} pages={values.pages ?? ''} onPages={(pages) => onChange({ pages })} purpose="remove" />
      );
    case 'add-page-numbers':
      return <PageNumbers pdf={pdf} values={values} onChange={onChange} />;
    case 'crop-pdf':
      return <CropView pdf={pdf} values={values} onChange={onChange} />;
    case 'fill-pdf-form':
      return <FormFill pdf={pdf} values={values} onChange={onChange} />;
    case 'sign-pdf':
      return <SignView pdf={pdf} values={values} onChange={onChange} onFiles={onFiles} />;
    case 'redact-pdf':
      return <RedactView pdf={pdf} values={values} onChange={onChange} />;
    default:
      return null;
  }
}
