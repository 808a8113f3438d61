// English irregular verbs, which the Porter stemmer leaves apart ("drove" is not "drive", "overridden" not
// "override"): the offline answerer matches a question's verb to the evidence with them, and the support checks
// (ground.ts) read a claim's "Kovac drove the Tahoe" against a source's "Kovac drives the Tahoe".
import { porter } from "./facts";

/**
 * Base, past and past participle. Forms that are also common nouns or adverbs are left out ("bit", "ground",
 * "wound", "lay").
 */
export const IRREGULAR_VERBS = (
  "make made|take took taken|give gave given|hide hid hidden|see saw seen|leave left|bring brought|hold held|" +
  "keep kept|run ran|speak spoke spoken|steal stole stolen|write wrote written|drive drove driven|begin began begun|" +
  "come came|get got gotten|know knew known|throw threw thrown|fall fell fallen|" +
  "sell sold|buy bought|pay paid|find found|send sent|meet met|say said|tell told|lead led|" +
  "arise arose arisen|bear bore borne|become became|bend bent|bind bound|bite bitten|bleed bled|blow blew blown|" +
  "break broke broken|breed bred|build built|burn burnt|catch caught|choose chose chosen|cling clung|creep crept|" +
  "deal dealt|dig dug|draw drew drawn|drink drank drunk|eat ate eaten|feed fed|feel felt|fight fought|flee fled|" +
  "fling flung|fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|" +
  "freeze froze frozen|grow grew grown|hang hung|hear heard|lend lent|lose lost|mean meant|mistake mistook mistaken|" +
  "override overrode overridden|overtake overtook overtaken|oversee oversaw overseen|ride rode ridden|rise rose risen|" +
  "seek sought|shake shook shaken|shrink shrank shrunk|sing sang sung|sink sank sunk|sit sat|sleep slept|slide slid|" +
  "spend spent|spin spun|spring sprang sprung|stand stood|stick stuck|sting stung|stride strode|sweep swept|" +
  "swear swore sworn|swim swam swum|swing swung|teach taught|tear tore torn|think thought|tread trod trodden|" +
  "undergo underwent undergone|undertake undertook undertaken|wake woke woken|wear wore worn|weave wove woven|" +
  "weep wept|win won|withdraw withdrew withdrawn|withhold withheld"
)
  .split("|")
  .map((g) => g.split(" "));

const BASE = new Map<string, string>();
for (const [base, ...forms] of IRREGULAR_VERBS) for (const f of forms) BASE.set(porter(f), porter(base));

/** The stem of an irregular verb's base form for the stem of another of its forms ("drove" → "drive"), else the stem. */
export const baseForm = (stem: string): string => BASE.get(stem) ?? stem;
