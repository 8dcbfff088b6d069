import { readWhere } from "../tools/schedule/reading/where.js";
for (const s of process.argv.slice(2)) console.log(s, "=>", JSON.stringify(readWhere(s)));
