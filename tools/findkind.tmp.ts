import { familyVersion } from '../src/families';
const [fam, gen, id] = process.argv.slice(2);
const out: number[] = [];
for (let s = 1; s < 300 && out.length < 3; s++) { const t = familyVersion(fam, Number(gen))!.generate(s); if ((t.answer_key.reply_claims ?? []).some((c: any) => c.id === id)) out.push(s); }
console.log(out.join(' '));
