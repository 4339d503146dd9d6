import { familyVersion, latestFamily } from '../src/families';
import { gradeReply } from './validity/validity-suite';
import { tokenize } from '../src/engine/graders/v9/claims/text';
import { stanceOf } from '../src/engine/graders/v9/claims/polarity';
import { clauseIds } from '../src/engine/graders/v9/claims/clauses';
// usage: probe5 <family> <gen|latest> <seed> reply || reply ...  (env V=4|5, DEBUG=1 prints moods)
const [fam, gen, seed, ...rest] = process.argv.slice(2);
const family = gen === 'latest' ? latestFamily(fam)! : familyVersion(fam, Number(gen))!;
const task = family.generate(Number(seed));
const v = Number(process.env.V ?? 9) as 4 | 5 | 6 | 7 | 8 | 9;
for (const reply of rest.join(' ').split(' || ')) {
  const g = gradeReply(task, reply, v);
  console.log('>>', reply);
  for (const d of g.details) console.log('  ', d.covered ? 'OK ' : '-- ', d.id, JSON.stringify((d as any).reason ?? ''));
  if (g.penalties.length) console.log('   penalties', g.penalties);
  if (process.env.DEBUG) {
    const toks = tokenize(reply);
    const ids = clauseIds(toks);
    const { moods } = stanceOf(toks, new Set(), ids);
    console.log('   ' + toks.map((t, i) => `${t}/${ids[i]}${moods[i]}`).join(' '));
  }
}
