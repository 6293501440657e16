import { reproducePeople } from "./src/experiments/reproduce-people.ts";
import { prepareStudyData } from "./src/server/study/population.ts";
import { cancerDiagnosisConfig } from "./src/server/study/template.ts";
const pool = prepareStudyData(cancerDiagnosisConfig()).pool;
const people = (process.argv[2] ?? "careful,tie-band,probit,flips-10").split(",") as never[];
const r = reproducePeople({ population: pool, trials: Number(process.argv[3] ?? 30), people });
for (const row of r.rows) {
  if (row.strategy !== "adaptive") continue;
  console.log(`${row.family.padEnd(17)} ${row.person.padEnd(10)} q ${row.questions.mean.toFixed(1)}/${row.questions.max} err p50 ${row.error.p50.toFixed(3)} p95 ${row.error.p95.toFixed(3)} max ${row.error.max.toFixed(3)} cov ${row.coverage?.toFixed(2)} flag ${row.flagged?.toFixed(2)} silent ${row.silentMisses}`);
}
