import { readFileSync } from 'node:fs';
import { familyVersion } from '../src/families';
import { gradeReply } from './validity/validity-suite';
// usage: show5 <family> <set> <id...> [--v N] [--claims]
const args = process.argv.slice(2);
const v = Number(args.includes('--v') ? args[args.indexOf('--v') + 1] : 9) as 4 | 5 | 6 | 7 | 8 | 9;
const [fam, set, ...ids] = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--v');
const d = JSON.parse(readFileSync(`src/families/${fam}/fixtures/drawn/${set}.json`, 'utf8'));
for (const inst of d.instances) {
  const task = familyVersion(d.task_id, Number(d.generator.slice(1)))!.generate(inst.seed);
  for (const r of [...inst.correct, ...inst.adversarial]) {
    const id = r.id;
    if (!ids.includes(id) && !ids.includes('all')) continue;
    const g = gradeReply(task, r.reply, v);
    console.log(`== ${id} (${r.style ?? r.kind ?? ''})\n${r.reply}`);
    if (args.includes('--claims')) console.log(JSON.stringify(task.answer_key.reply_claims));
    for (const det of g.details) console.log('  ', det.covered ? 'OK ' : '-- ', det.id, JSON.stringify((det as any).reason ?? ''), JSON.stringify((det as any).evidence ?? ''));
    if (g.penalties.length) console.log('  penalties', g.penalties);
  }
}
