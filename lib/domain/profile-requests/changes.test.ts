import { describe, expect, it } from 'vitest';
import { approvedUserData, currentFields, diffProfile, parseChanges } from './changes';
import { changeRequestListQuerySchema } from './schemas';

const ada = { firstname: 'Ada', lastname: 'Lovelace', acronym: null, email: 'Ada@Example.test' };

describe('diffProfile', () => {
  it('keeps only the fields that differ', () => {
    expect(diffProfile(ada, { Firstname: 'Ada', Lastname: 'King', Acronym: 'AK', Email: 'ada@example.test' })).toEqual({ Lastname: 'King', Acronym: 'AK' });
  });

  it('is empty when nothing differs or nothing was sent', () => {
    expect(diffProfile(ada, {})).toEqual({});
    expect(diffProfile(ada, { Firstname: ' Ada ', Acronym: '', Email: 'ADA@EXAMPLE.TEST' })).toEqual({});
    expect(diffProfile(ada, { Acronym: null })).toEqual({});
  });

  it('asks to clear a name with null or "" (as "")', () => {
    expect(diffProfile(ada, { Firstname: null })).toEqual({ Firstname: '' });
    expect(diffProfile(ada, { Lastname: '  ' })).toEqual({ Lastname: '' });
  });

  it('never clears the address: null and "" mean no change', () => {
    expect(diffProfile(ada, { Email: null })).toEqual({});
    expect(diffProfile(ada, { Email: '' })).toEqual({});
    expect(diffProfile(ada, { Email: ' new@example.test ' })).toEqual({ Email: 'new@example.test' });
  });
});

describe('parseChanges', () => {
  it('reads known string fields only', () => {
    expect(parseChanges('{"Firstname":"A","Email":"e@x.test","Other":"x","Lastname":5}')).toEqual({ Firstname: 'A', Email: 'e@x.test' });
  });

  it.each(['', 'not json', 'null', '[]', '"x"'])('survives %j', (s) => {
    expect(parseChanges(s)).toEqual({});
  });
});

describe('approvedUserData', () => {
  it('writes only requested fields, clears with "", confirms a new address', () => {
    expect(approvedUserData({ Firstname: '', Acronym: 'AL' })).toEqual({ firstname: null, lastname: undefined, acronym: 'AL' });
    expect(approvedUserData({ Email: 'New@Example.test' })).toMatchObject({
      email: 'New@Example.test',
      emailNormalized: 'new@example.test',
      emailConfirmed: true,
    });
  });
});

describe('currentFields', () => {
  it('omits empty fields', () => {
    expect(currentFields(ada)).toEqual({ Firstname: 'Ada', Lastname: 'Lovelace', Acronym: undefined, Email: 'Ada@Example.test' });
  });
});

describe('status filter', () => {
  const parse = (status?: string) => changeRequestListQuerySchema.safeParse(status === undefined ? {} : { status });
  it('defaults to Open', () => {
    expect(parse().data?.status).toEqual(['Open']);
  });
  it('takes a comma-separated list, any case', () => {
    expect(parse('approved,REJECTED').data?.status).toEqual(['Approved', 'Rejected']);
  });
  it('refuses unknown statuses', () => {
    expect(parse('Open,Nope').success).toBe(false);
  });
});
