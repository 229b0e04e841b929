/**
 * A connection URL as it may be printed: the password hidden, everything else kept so a person can see which
 * server is meant. Apart from the database code so a command can print its URLs without loading a driver.
 */

export function redactUrlPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    // Not a WHATWG URL (redis+cluster://user:secret@a:7000,b:7001 has several hosts): hide the userinfo's password.
    return url.replace(/^([a-z+]+:\/\/[^:@/]*:)[^@/]*@/i, '$1***@');
  }
}
