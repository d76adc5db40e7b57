import { describe, expect, it } from 'vitest';
import { FIELD_MESSAGES, idField, idParamField, MAX_ID, textField } from './fields';

const messageOf = (result: { success: boolean; error?: { issues: Array<{ message: string }> } }) => (result.success ? null : result.error!.issues[0]!.message);

describe('textField', () => {
  const line = textField({ max: 10, tooLong: 'Too long' });
  const area = textField({ max: 20, multiline: true });

  it('trims, then bounds the length', () => {
    expect(line.parse('  Ada  ')).toBe('Ada');
    expect(messageOf(line.safeParse(`  ${'x'.repeat(10)}  `))).toBeNull();
    expect(messageOf(line.safeParse('x'.repeat(11)))).toBe('Too long');
  });

  it('refuses NUL, other C0 and C1 controls and DEL; keeps every printable character', () => {
    for (const bad of ['a\u0000b', 'a\tb', 'a\nb', 'a\u001bb', 'a\u007fb', 'a\u0085b']) expect(messageOf(line.safeParse(bad)), JSON.stringify(bad)).toBe(FIELD_MESSAGES.controlCharacters);
    expect(line.parse('Zoë 🌿 “ok”')).toBe('Zoë 🌿 “ok”');
  });

  it('allows line breaks and tabs only in multi-line text', () => {
    expect(area.parse('One\r\nTwo\tthree')).toBe('One\r\nTwo\tthree');
    expect(messageOf(area.safeParse('One\u0000Two'))).toBe(FIELD_MESSAGES.controlCharactersMultiline);
  });
});

describe('idField and idParamField', () => {
  it('takes positive whole numbers up to the integer column', () => {
    const id = idField('Bad id', 'No such row');
    expect(id.parse(MAX_ID)).toBe(MAX_ID);
    expect(messageOf(id.safeParse(MAX_ID + 1))).toBe('No such row');
    for (const bad of [0, -1, 1.5, Number.NaN, '1']) expect(messageOf(id.safeParse(bad)), String(bad)).toBe('Bad id');
  });

  it('reads a path segment of digits only', () => {
    const param = idParamField('Bad id');
    expect(param.parse('42')).toBe(42);
    expect(param.parse(String(MAX_ID))).toBe(MAX_ID);
    for (const bad of ['0', '042', '+1', '1e3', ' 1', '2147483648', '99999999999', 'a\u0000']) expect(param.safeParse(bad).success, bad).toBe(false);
  });
});
