import { measureWindows, windowOf } from "../bench/arrange-cost.ts";
const seeds = [1,2,3,4,5,6,7,8];
const windows = seeds.flatMap((seed) => [7, 28, 112].map((days) => ({ name: `${days}d s${seed}`, week: windowOf(days, undefined, seed) })));
const rows = measureWindows(windows, 5, 8, 448);
const by = (d: number) => rows.filter((r) => r.days === d);
for (const seed of seeds) {
  const r = (d: number) => rows.find((x) => x.name === `${d}d s${seed}`)!;
  console.log(`seed ${seed}: 7d ${r(7).arrangeMs.toFixed(2)} (${r(7).pending}) 28d ${r(28).arrangeMs.toFixed(2)} (${r(28).pending}) → ${(r(28).arrangeMs/r(7).arrangeMs).toFixed(2)}× ; 112d ${(r(112).arrangeMs/r(7).arrangeMs).toFixed(1)}× | list ${(r(28).listMs/r(7).listMs).toFixed(2)}× ${(r(112).listMs/r(7).listMs).toFixed(1)}×`);
}
const mean = (xs: number[]) => xs.reduce((a,b)=>a+b,0)/xs.length;
const m7 = mean(by(7).map(r=>r.arrangeMs)), m28 = mean(by(28).map(r=>r.arrangeMs)), m112 = mean(by(112).map(r=>r.arrangeMs));
console.log(`means: 7d ${m7.toFixed(2)} 28d ${m28.toFixed(2)} (${(m28/m7).toFixed(2)}×) 112d ${m112.toFixed(2)} (${(m112/m7).toFixed(2)}×)`);
const l7 = mean(by(7).map(r=>r.listMs)), l28 = mean(by(28).map(r=>r.listMs)), l112 = mean(by(112).map(r=>r.listMs));
console.log(`list means: 7d ${l7.toFixed(2)} 28d ${l28.toFixed(2)} (${(l28/l7).toFixed(2)}×) 112d ${l112.toFixed(2)} (${(l112/l7).toFixed(2)}×)`);
