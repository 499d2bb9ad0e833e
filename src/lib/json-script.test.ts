import { describe, expect, it } from 'vitest';
import { jsonForScript } from './json-script';

describe('jsonForScript', () => {
  it('cannot close the script element or open a comment, whatever a string holds', () => {
    const value = { name: 'Zeta</script><script>alert(1)</script>', note: '<!-- x --> & </SCRIPT >' };
    const out = jsonForScript(value);
    expect(out).not.toMatch(/[<>&]/);
    expect(out.toLowerCase()).not.toContain('</script');
    expect(JSON.parse(out)).toEqual(value);
  });

  it('escapes the line and paragraph separators and round-trips every character', () => {
    const all = Array.from({ length: 0x3000 }, (_, i) => String.fromCharCode(i)).join('');
    const out = jsonForScript({ all, seps: '\u2028\u2029' });
    expect(out).not.toMatch(/[\u2028\u2029]/);
    expect(JSON.parse(out)).toEqual({ all, seps: '\u2028\u2029' });
  });
});
