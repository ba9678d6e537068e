/**
 * British and American spellings of one English word ("colour" and "color", "centre" and
 * "center", "paediatric" and "pediatric", "organise" and "organize"): Porter's stems keep them apart
 * (colour, color; centr, center; organis, organ), so a Leeds follower's "paediatric clinic" found
 * nothing in an American account's "Pediatric clinic". A question's word no article holds is read
 * as its other spelling when some article holds that (rank.ts reads the question so, before compounds.ts). Only
 * pairs that are one word wherever they stand: not cheque (check), tyre (tire), metre (meter),
 * storey (story), kerb (curb) or draught (draft), whose other spelling is another word too.
 */
import { COMPOUNDS, heldByNone, latinWords, usedTerm, type CompoundSource } from "./compounds.ts";

/** British, American — as pairs, each read as the other when it is the one no article holds. */
const PAIRS = `colour color colours colors coloured colored favourite favorite favourites favorites favour favor
flavour flavor flavours flavors behaviour behavior behaviours behaviors neighbour neighbor neighbours neighbors
neighbourhood neighborhood harbour harbor honour honor humour humor labour labor rumour rumor odour odor
centre center centres centers theatre theater theatres theaters litre liter litres liters fibre fiber
licence license licences licenses defence defense offence offense catalogue catalog catalogues catalogs
dialogue dialog analogue analog analyse analyze analysed analyzed analysing analyzing paralysed paralyzed
organise organize organised organized organising organizing organisation organization organisations organizations
organiser organizer apologise apologize apologised apologized recognise recognize recognised recognized
realise realize realised realized authorise authorize authorised authorized authorisation authorization
customise customize customised customized personalise personalize personalised personalized prioritise prioritize
minimise minimize maximise maximize finalise finalize finalised finalized specialise specialize specialised specialized
sanitiser sanitizer sanitise sanitize sanitised sanitized immunise immunize immunisation immunization immunisations immunizations
hospitalised hospitalized criticise criticize emphasise emphasize summarise summarize memorise memorize utilise utilize
optimise optimize categorise categorize standardise standardize sterilise sterilize sterilised sterilized
subsidise subsidize subsidised subsidized jewellery jewelry paediatric pediatric paediatrician pediatrician
paediatrics pediatrics anaesthetic anesthetic anaesthesia anesthesia anaesthetist anesthetist haemorrhage hemorrhage
oestrogen estrogen orthopaedic orthopedic gynaecology gynecology gynaecologist gynecologist diarrhoea diarrhea
oesophagus esophagus foetus fetus leukaemia leukemia anaemia anemia haemoglobin hemoglobin aluminium aluminum
pyjamas pajamas grey gray sceptical skeptical manoeuvre maneuver aeroplane airplane enquiry inquiry enquiries inquiries
enquire inquire judgement judgment practise practice practised practiced mould mold mouldy moldy cosy cozy
doughnut donut programme program programmes programs mum mom mums moms plough plow`.split(/\s+/);

const OTHER = new Map<string, string>();
for (let i = 0; i + 1 < PAIRS.length; i += 2) {
  OTHER.set(PAIRS[i] as string, PAIRS[i + 1] as string);
  OTHER.set(PAIRS[i + 1] as string, PAIRS[i] as string);
}

/** The other spelling of `word` (lower case), if it has one. */
export const otherSpelling = (word: string): string | undefined => OTHER.get(word);

/** A word of a question that may have another spelling: three letters ("mum") to the longest word tried. */
const SPELLED = latinWords(3, COMPOUNDS.longest);

/**
 * `text` with each word no article holds written in its other spelling where an article holds that.
 * At most COMPOUNDS.words words with another spelling are looked up.
 */
export function otherSpellings(text: string, source: CompoundSource): string {
  let looked = 0;
  return text.replace(SPELLED, (written) => {
    const word = written.normalize("NFKC").toLowerCase();
    const other = otherSpelling(word);
    if (other === undefined || looked >= COMPOUNDS.words) return written;
    looked++;
    return heldByNone(word, source) && usedTerm(other, source) !== null ? other : written;
  });
}
