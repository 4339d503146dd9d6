import { readFileSync } from 'node:fs';
import { familyVersion } from '../src/families';
import { analyseReply } from '../src/engine/graders/v9/reply-grading';
import { loadAnalysis } from '../src/engine/graders/v9/claims/stored-analysis';
const [fam, set, ...ids] = process.argv.slice(2);
const d = JSON.parse(readFileSync(`src/families/${fam}/fixtures/drawn/${set}.json`, 'utf8'));
for (const inst of d.instances) {
  const task = familyVersion(d.task_id, Number(d.generator.slice(1)))!.generate(inst.seed);
  for (const r of [...inst.correct, ...inst.adversarial]) {
    if (!ids.includes(r.id)) continue;
    const a = loadAnalysis(analyseReply(task, task.answer_key.target_ticket_id, r.reply));
    for (const s of a.sentences) console.log(r.id, s.status, s.moods, '|', s.text);
  }
}
