// A preload that shifts the process's wall clock (issue: tests that read the machine's date). With TEMPO_FAKE_NOW set
// to an instant (`2027-11-07T06:30:00Z`), `Date.now()` and `new Date()` read that instant at start and keep ticking
// from there, so timeouts and elapsed-time code still work; `performance.now()` and timers are untouched. Without the
// variable it does nothing. Loaded through NODE_OPTIONS, it reaches every worker and child process:
//   TEMPO_FAKE_NOW=2027-11-07T06:30:00Z NODE_OPTIONS="--import $PWD/tests/support/fake-now.mjs" npx vitest run --project unit
// A check to run by hand: a test that passes today and fails under some instant reads the real clock, or the product
// mishandles that moment.
const wanted = process.env.TEMPO_FAKE_NOW;
if (wanted && !globalThis.Date.__tempoFakeNow) {
  const target = Date.parse(wanted);
  if (Number.isNaN(target)) throw new Error(`TEMPO_FAKE_NOW is not an instant: ${wanted}`);
  const RealDate = globalThis.Date;
  // One offset for the process tree: the first process to load this (npm, vitest) fixes it, and every worker and child
  // process started later inherits it, so their clocks agree instead of each starting again at the instant.
  const inherited = Number(process.env.TEMPO_FAKE_NOW_OFFSET);
  const offset = Number.isFinite(inherited) && process.env.TEMPO_FAKE_NOW_OFFSET ? inherited : target - RealDate.now();
  process.env.TEMPO_FAKE_NOW_OFFSET = String(offset);
  const now = () => RealDate.now() + offset;
  function FakeDate(...args) {
    if (!new.target) return new RealDate(now()).toString();
    return Reflect.construct(RealDate, args.length === 0 ? [now()] : args, new.target);
  }
  Object.setPrototypeOf(FakeDate, RealDate);
  FakeDate.prototype = RealDate.prototype;
  FakeDate.now = now;
  FakeDate.parse = RealDate.parse;
  FakeDate.UTC = RealDate.UTC;
  Object.defineProperty(FakeDate, "__tempoFakeNow", { value: true });
  globalThis.Date = FakeDate;
}
