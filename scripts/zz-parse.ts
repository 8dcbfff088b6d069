import { parseScheduleRequest } from "../tools/schedule/request-parsing.js";
for (const s of process.argv.slice(2)) console.log(s, "=>", JSON.stringify(parseScheduleRequest(s)).slice(0, 400));
