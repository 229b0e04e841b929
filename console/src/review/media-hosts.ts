/**
 * Which URLs the console previews inline: only those on the media hosts the server names (GET /api/me
 * `mediaHosts`, from VETTED_MEDIA_HOSTS), on their default port, as the console's Content-Security-Policy
 * allows. An attachment or a `uri` value may name any address, an intranet one included; a preview would make
 * every reviewer's browser request it as the card opens. Elsewhere the URL is shown as text, behind a click.
 */

const IMAGE = /\.(png|jpe?g|gif|webp|avif|bmp|svg)(\?|#|$)/i;
const AUDIO = /\.(mp3|wav|ogg|oga|flac|m4a|aac)(\?|#|$)/i;
const VIDEO = /\.(mp4|webm|mov|m4v|ogv)(\?|#|$)/i;

export type Preview =
  /** Rendered inline: the browser fetches it. */
  | { kind: 'image' | 'audio' | 'video'; url: string }
  /** A link the reviewer follows or not (nothing is fetched until then). */
  | { kind: 'link'; url: string }
  /** Not on an allowed host: only a button, which then shows the full URL as text. */
  | { kind: 'hidden'; url: string };

/** Whether the URL is http(s) on one of the hosts (`cdn.example.com`, or `*.example.com` for its subdomains), default port. */
export function onMediaHost(url: string, hosts: readonly string[]): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (!/^https?:$/.test(parsed.protocol) || parsed.port !== '' || parsed.username || parsed.password) return false;
  const name = parsed.hostname.toLowerCase();
  return hosts.some((host) => (host.startsWith('*.') ? name.endsWith(host.slice(1)) : name === host));
}

/** How the console shows a file URL; null for what is not an http(s) URL. */
export function previewOf(url: string, hosts: readonly string[]): Preview | null {
  if (!/^https?:\/\//i.test(url)) return null;
  const kind = IMAGE.test(url) ? 'image' : AUDIO.test(url) ? 'audio' : VIDEO.test(url) ? 'video' : 'link';
  if (kind === 'link') return { kind, url };
  return onMediaHost(url, hosts) ? { kind, url } : { kind: 'hidden', url };
}
