import { scheduleBrain, type Brain } from "./brain.js";
export const naiveBrain: Brain = (request) => scheduleBrain(request);
