import { describe, expect, it } from 'vitest';
import { audienceProblem } from './audience';

describe('API audiences', () => {
  it.each(['https://api.example.com', 'https://api.example.com/v1', 'urn:gatehouse:management-api', 'urn:example:orders:v2', 'http://localhost:5000/api'])(
    'accepts %s',
    (a) => expect(audienceProblem(a)).toBeUndefined(),
  );

  it.each([
    ['orders-api', 'absolute URI'],
    ['/relative', 'absolute URI'],
    ['https://api.example.com/#x', 'fragment'],
    ['urn:', 'URN'],
    ['urn:x', 'URN'],
    ['https://api.example.com/a b', 'printable'],
    ['https://u:p@api.example.com', 'user information'],
  ])('refuses %s', (a, why) => expect(audienceProblem(a)).toContain(why));
});
