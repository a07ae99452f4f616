import { useState } from 'react';
import { acceptOf } from './accept.ts';
import { wantedKinds } from './outcome-message.ts';
import { takesMany, type Tool } from '../../lib/tools.ts';
import { useSiteSettings } from '../../lib/settings.ts';
import { useT } from '../../i18n/use-t.ts';

/** The file picker, which files can also be dropped on, with the kinds and size it takes. */
export function DropZone({
  tool,
  onFiles,
  batch = false,
}: {
  tool: Tool;
  onFiles: (files: FileList) => void;
  /** Takes several files even for a single-file tool, each run on its own. */
  batch?: boolean;
}) {
  const t = useT();
  const settings = useSiteSettings();
  const [dragging, setDragging] = useState(false);
  const many = takesMany(tool) || batch;
  const kinds = wantedKinds(tool.id);
  return (
    <div
      className={`drop-zone${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        onFiles(e.dataTransfer.files);
      }}
    >
      <input
        id={`${tool.id}-file`}
        type="file"
        className="visually-hidden"
        accept={acceptOf(tool)}
        multiple={many}
        onChange={(e) => {
          if (e.target.files) onFiles(e.target.files);
          e.target.value = '';
        }}
      />
      <label htmlFor={`${tool.id}-file`} className="button">
        {t(many ? 'upload.chooseMany' : 'upload.choose')}
      </label>
      <span>{t(many ? 'upload.dropMany' : 'upload.drop')}</span>
      <small>{t('upload.accepts', { kinds, mb: settings.uploadLimitMb })}</small>
    </div>
  );
}
