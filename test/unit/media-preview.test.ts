import { describe, expect, it } from 'vitest';
import { onMediaHost, previewOf } from '../../console/src/review/media-hosts.ts';

const HOSTS = ['cdn.test', '*.media.example'];

describe("the console's media previews", () => {
  it('an intranet address in an attachment is never previewed: only shown behind a click', () => {
    expect(previewOf('http://192.168.0.1/cgi-bin/reboot?a.png', HOSTS)).toEqual({ kind: 'hidden', url: 'http://192.168.0.1/cgi-bin/reboot?a.png' });
    expect(previewOf('http://intranet.local/a.mp3', [])).toMatchObject({ kind: 'hidden' });
    expect(previewOf('https://cdn.test/a.png', [])).toMatchObject({ kind: 'hidden' });
  });

  it('previews image, audio and video inline on an allowed host, its subdomains for a wildcard, on the default port only', () => {
    expect(previewOf('https://cdn.test/a.png', HOSTS)).toEqual({ kind: 'image', url: 'https://cdn.test/a.png' });
    expect(previewOf('https://eu.media.example/clip.mp4?sig=1', HOSTS)).toMatchObject({ kind: 'video' });
    expect(previewOf('https://eu.media.example/a.wav', HOSTS)).toMatchObject({ kind: 'audio' });
    expect(onMediaHost('https://media.example/a.png', HOSTS)).toBe(false);
    expect(onMediaHost('https://cdn.test.evil.example/a.png', HOSTS)).toBe(false);
    expect(onMediaHost('https://cdn.test:8443/a.png', HOSTS)).toBe(false);
    expect(onMediaHost('https://user:pw@cdn.test/a.png', HOSTS)).toBe(false);
  });

  it('a URL that is not a media file stays a link; what is not http(s) shows nothing', () => {
    expect(previewOf('https://docs.example/readme', HOSTS)).toEqual({ kind: 'link', url: 'https://docs.example/readme' });
    expect(previewOf('javascript:alert(1)//a.png', HOSTS)).toBeNull();
    expect(previewOf('file:///etc/passwd.png', HOSTS)).toBeNull();
  });
});
