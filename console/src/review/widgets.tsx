/**
 * Form widgets for model inputs: a bounded number as a slider with a number input beside it, and a file URL with
 * a preview of what it points at (image, audio or video, by its extension).
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useState } from 'react';
import { SessionContext } from '../session.tsx';
import { previewOf } from './media-hosts.ts';

function numberOrUndefined(text: string, integer: boolean): number | undefined {
  if (text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? (integer ? Math.trunc(value) : value) : undefined;
}

export function SliderWithInput(props: WidgetProps) {
  const { id, value, schema, disabled, readonly, onChange, onBlur, onFocus, label, rawErrors } = props;
  const integer = schema.type === 'integer';
  const min = Number(schema.minimum ?? 0);
  const max = Number(schema.maximum ?? 100);
  const step = integer ? 1 : Number(schema.multipleOf ?? (max - min) / 100);
  const invalid = (rawErrors?.length ?? 0) > 0;
  return (
    <div className="slider-with-input">
      <input
        type="range"
        aria-label={`${label} (slider)`}
        min={min}
        max={max}
        step={step}
        value={typeof value === 'number' ? Math.min(max, Math.max(min, value)) : min}
        disabled={disabled || readonly}
        onChange={(event) => onChange(numberOrUndefined(event.target.value, integer))}
      />
      <input
        id={id}
        type="number"
        inputMode={integer ? 'numeric' : 'decimal'}
        step={integer ? 1 : 'any'}
        value={value ?? ''}
        aria-invalid={invalid || undefined}
        disabled={disabled}
        readOnly={readonly}
        onChange={(event) => onChange(numberOrUndefined(event.target.value, integer))}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      <span className="muted small">{min} – {max}</span>
    </div>
  );
}

/**
 * A preview of a file URL: image, audio or video by extension when it is on an allowed media host
 * (media-hosts.ts), a button that shows the full URL first when it is not, else a link.
 */
export function MediaPreview({ url, label }: { url: string; label: string }) {
  const hosts = useContext(SessionContext)?.mediaHosts ?? [];
  const preview = previewOf(url, hosts);
  if (!preview) return null;
  switch (preview.kind) {
    case 'image':
      return <img className="preview" src={url} alt={`Preview of ${label}`} loading="lazy" />;
    case 'audio':
      return <audio className="preview" controls src={url} aria-label={`Preview of ${label}`} />;
    case 'video':
      return <video className="preview" controls src={url} aria-label={`Preview of ${label}`} />;
    case 'hidden':
      return <HiddenPreview url={url} label={label} />;
    default:
      return <a href={url} target="_blank" rel="noreferrer noopener">Open {label}</a>;
  }
}

/** Not on an allowed host: nothing is fetched; a click shows the full URL, then a link the reviewer may follow. */
function HiddenPreview({ url, label }: { url: string; label: string }) {
  const [shown, setShown] = useState(false);
  if (!shown) return <button type="button" data-testid="show-media-url" onClick={() => setShown(true)}>Show the address of {label} (not previewed: not an allowed media host)</button>;
  return (
    <span className="media-url">
      <code>{url}</code> <a href={url} target="_blank" rel="noreferrer noopener">Open in a new tab</a>
    </span>
  );
}

export function UriWithPreview(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, onBlur, onFocus, label, rawErrors, placeholder } = props;
  return (
    <div className="uri-widget">
      <input
        id={id}
        type="url"
        value={value ?? ''}
        placeholder={placeholder || 'https://…'}
        aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
        disabled={disabled}
        readOnly={readonly}
        onChange={(event) => onChange(event.target.value === '' ? undefined : event.target.value)}
        onBlur={() => onBlur(id, value)}
        onFocus={() => onFocus(id, value)}
      />
      {typeof value === 'string' ? <MediaPreview url={value} label={label} /> : null}
    </div>
  );
}

export const WIDGETS = { sliderWithInput: SliderWithInput, uriWithPreview: UriWithPreview };
