/**
 * Set "town exonyms": a town or city of the destinations asked by the name it has in another
 * language, as visitors, neighbours and old maps write it (`Ypres` for Ieper, `Coire` for Chur,
 * `Mantua` for Mantova, `Marienbad` for Mariánské Lázně, `Elsinore` for Helsingør). Added
 * 2026-11-28, its list and rule written before its first run and before the layer took such names
 * for towns under 50,000 people (scripts/gen-default-layer.ts, TOWN_ALT_NAMES_FROM).
 *
 * The pairs (EXONYMS) are written by hand from the names in common use in English, French,
 * German, Dutch, Italian, Swedish, Danish, Hungarian and Slovene, not taken from GeoNames'
 * alternate names (the source of the layer's): towns of every size, the big cities among them
 * as a control. The place is the most populous place of cities500 in that country whose GeoNames
 * name or ASCII name is the local name written here (else one of its alternate names: GeoNames
 * names some cities in English, `Florence`, `Munich`). A pair is left out, and counted, when that
 * place is not found, or when the exonym is itself the GeoNames name of a place of the
 * destinations (`Bergen` for Mons is a Dutch town's own name; `Vienne` a French town's): such a
 * query has another right answer. Patterns: `exonym alone` (`Ypres`), `exonym, country` (the
 * country's English name: `Ypres, Belgium`) and `city field` (`{"city": "Ypres"}`). Truth: the
 * place (its names, or its point within the places set's radius). Halves by `mixedHalfOf` of the pair, so that
 * a name's three patterns fall in the same half.
 */
import { countryName } from '../../../src/engine/lookup/parse/countries.ts';
import { foldText } from '../../../src/engine/lookup/normalize/normalize.ts';
import { makeCase, type PeopleCase } from './cases.ts';
import { loadPlaces, truthOf, type Place } from './places.ts';
import { mixedHalfOf } from './split.ts';

export const TOWN_EXONYMS_SET = 'town exonyms';

/** [exonym, its language, country, the place's local name]. */
export const EXONYMS: ReadonlyArray<readonly [string, string, string, string]> = [
  // Belgium
  ['Ypres', 'en', 'BE', 'Ieper'], ['Tongres', 'fr', 'BE', 'Tongeren'], ['Furnes', 'fr', 'BE', 'Veurne'], ['Dixmude', 'fr', 'BE', 'Diksmuide'],
  ['Audenarde', 'fr', 'BE', 'Oudenaarde'], ['Termonde', 'fr', 'BE', 'Dendermonde'], ['Saint-Trond', 'fr', 'BE', 'Sint-Truiden'], ['Lierre', 'fr', 'BE', 'Lier'],
  ['Tirlemont', 'fr', 'BE', 'Tienen'], ['Courtrai', 'fr', 'BE', 'Kortrijk'], ['Malines', 'fr', 'BE', 'Mechelen'], ['Louvain', 'fr', 'BE', 'Leuven'],
  ['Roulers', 'fr', 'BE', 'Roeselare'], ['Menin', 'fr', 'BE', 'Menen'], ['Vilvorde', 'fr', 'BE', 'Vilvoorde'], ['Aarlen', 'nl', 'BE', 'Arlon'],
  ['Bastenaken', 'nl', 'BE', 'Bastogne'], ['Borgworm', 'nl', 'BE', 'Waremme'], ['Geldenaken', 'nl', 'BE', 'Jodoigne'], ['Nijvel', 'nl', 'BE', 'Nivelles'],
  ['Waver', 'nl', 'BE', 'Wavre'], ['Hoei', 'nl', 'BE', 'Huy'], ['Aat', 'nl', 'BE', 'Ath'], ['Edingen', 'nl', 'BE', 'Enghien'], ['Zinnik', 'nl', 'BE', 'Soignies'],
  ['Bergen', 'nl', 'BE', 'Mons'], ['Luik', 'nl', 'BE', 'Liège'], ['Namen', 'nl', 'BE', 'Namur'], ['Doornik', 'nl', 'BE', 'Tournai'], ['Moeskroen', 'nl', 'BE', 'Mouscron'],
  // Switzerland
  ['Coire', 'fr', 'CH', 'Chur'], ['Soleure', 'fr', 'CH', 'Solothurn'], ['Bienne', 'fr', 'CH', 'Biel/Bienne'], ['Siders', 'de', 'CH', 'Sierre'],
  ['Delsberg', 'de', 'CH', 'Delémont'], ['Bellenz', 'de', 'CH', 'Bellinzona'], ['Luggarus', 'de', 'CH', 'Locarno'], ['Schaffhouse', 'fr', 'CH', 'Schaffhausen'],
  ['Zoug', 'fr', 'CH', 'Zug'], ['Schwytz', 'fr', 'CH', 'Schwyz'], ['Glaris', 'fr', 'CH', 'Glarus'], ['Thoune', 'fr', 'CH', 'Thun'], ['Saint-Gall', 'fr', 'CH', 'St. Gallen'],
  ['Lucerne', 'en', 'CH', 'Luzern'], ['Bâle', 'fr', 'CH', 'Basel'], ['Basle', 'en', 'CH', 'Basel'], ['Genf', 'de', 'CH', 'Genève'], ['Berne', 'en', 'CH', 'Bern'],
  ['Neuenburg', 'de', 'CH', 'Neuchâtel'], ['Sitten', 'de', 'CH', 'Sion'], ['Iferten', 'de', 'CH', 'Yverdon-les-Bains'], ['Morat', 'fr', 'CH', 'Murten'],
  // Italy
  ['Mantua', 'en', 'IT', 'Mantova'], ['Meran', 'de', 'IT', 'Merano'], ['Brixen', 'de', 'IT', 'Bressanone'], ['Bruneck', 'de', 'IT', 'Brunico'],
  ['Sterzing', 'de', 'IT', 'Vipiteno'], ['Leifers', 'de', 'IT', 'Laives'], ['Görz', 'de', 'IT', 'Gorizia'], ['Padua', 'en', 'IT', 'Padova'], ['Leghorn', 'en', 'IT', 'Livorno'],
  ['Syracuse', 'en', 'IT', 'Siracusa'], ['Bozen', 'de', 'IT', 'Bolzano'], ['Trient', 'de', 'IT', 'Trento'], ['Triest', 'de', 'IT', 'Trieste'], ['Florenz', 'de', 'IT', 'Firenze'],
  ['Mailand', 'de', 'IT', 'Milano'], ['Venedig', 'de', 'IT', 'Venezia'], ['Genua', 'de', 'IT', 'Genova'], ['Neapel', 'de', 'IT', 'Napoli'], ['Turin', 'en', 'IT', 'Torino'],
  ['Sienne', 'fr', 'IT', 'Siena'], ['Pérouse', 'fr', 'IT', 'Perugia'], ['Ravenne', 'fr', 'IT', 'Ravenna'], ['Vérone', 'fr', 'IT', 'Verona'], ['Vicence', 'fr', 'IT', 'Vicenza'],
  ['Plaisance', 'fr', 'IT', 'Piacenza'], ['Crémone', 'fr', 'IT', 'Cremona'], ['Aoste', 'fr', 'IT', 'Aosta'], ['Bergame', 'fr', 'IT', 'Bergamo'], ['Côme', 'fr', 'IT', 'Como'],
  ['Ancône', 'fr', 'IT', 'Ancona'],
  // Slovenia, Croatia
  ['Cilli', 'de', 'SI', 'Celje'], ['Pettau', 'de', 'SI', 'Ptuj'], ['Krainburg', 'de', 'SI', 'Kranj'], ['Rudolfswert', 'de', 'SI', 'Novo Mesto'], ['Laibach', 'de', 'SI', 'Ljubljana'],
  ['Marburg an der Drau', 'de', 'SI', 'Maribor'], ['Capodistria', 'it', 'SI', 'Koper'],
  ['Warasdin', 'de', 'HR', 'Varaždin'], ['Sebenico', 'it', 'HR', 'Šibenik'], ['Traù', 'it', 'HR', 'Trogir'], ['Parenzo', 'it', 'HR', 'Poreč'], ['Rovigno', 'it', 'HR', 'Rovinj'],
  ['Spalato', 'it', 'HR', 'Split'], ['Zara', 'it', 'HR', 'Zadar'], ['Fiume', 'it', 'HR', 'Rijeka'], ['Esseg', 'de', 'HR', 'Osijek'], ['Agram', 'de', 'HR', 'Zagreb'], ['Pola', 'it', 'HR', 'Pula'],
  // Czechia, Slovakia, Hungary
  ['Marienbad', 'de', 'CZ', 'Mariánské Lázně'], ['Znaim', 'de', 'CZ', 'Znojmo'], ['Iglau', 'de', 'CZ', 'Jihlava'], ['Kuttenberg', 'de', 'CZ', 'Kutná Hora'],
  ['Trautenau', 'de', 'CZ', 'Trutnov'], ['Komotau', 'de', 'CZ', 'Chomutov'], ['Leitmeritz', 'de', 'CZ', 'Litoměřice'], ['Prossnitz', 'de', 'CZ', 'Prostějov'],
  ['Prerau', 'de', 'CZ', 'Přerov'], ['Neutitschein', 'de', 'CZ', 'Nový Jičín'], ['Budweis', 'de', 'CZ', 'České Budějovice'], ['Pilsen', 'de', 'CZ', 'Plzeň'],
  ['Olmütz', 'de', 'CZ', 'Olomouc'], ['Brünn', 'de', 'CZ', 'Brno'], ['Reichenberg', 'de', 'CZ', 'Liberec'], ['Teplitz', 'de', 'CZ', 'Teplice'],
  ['Gablonz', 'de', 'CZ', 'Jablonec nad Nisou'], ['Königgrätz', 'de', 'CZ', 'Hradec Králové'], ['Pardubitz', 'de', 'CZ', 'Pardubice'], ['Troppau', 'de', 'CZ', 'Opava'],
  ['Karlsbad', 'de', 'CZ', 'Karlovy Vary'], ['Eger', 'de', 'CZ', 'Cheb'],
  ['Leutschau', 'de', 'SK', 'Levoča'], ['Käsmark', 'de', 'SK', 'Kežmarok'], ['Rosenau', 'de', 'SK', 'Rožňava'], ['Komorn', 'de', 'SK', 'Komárno'],
  ['Neusohl', 'de', 'SK', 'Banská Bystrica'], ['Sillein', 'de', 'SK', 'Žilina'], ['Tyrnau', 'de', 'SK', 'Trnava'], ['Kaschau', 'de', 'SK', 'Košice'], ['Neutra', 'de', 'SK', 'Nitra'],
  ['Pressburg', 'de', 'SK', 'Bratislava'], ['Schemnitz', 'de', 'SK', 'Banská Štiavnica'], ['Deutschendorf', 'de', 'SK', 'Poprad'],
  ['Waitzen', 'de', 'HU', 'Vác'], ['Güns', 'de', 'HU', 'Kőszeg'], ['Ödenburg', 'de', 'HU', 'Sopron'], ['Steinamanger', 'de', 'HU', 'Szombathely'], ['Fünfkirchen', 'de', 'HU', 'Pécs'],
  ['Raab', 'de', 'HU', 'Győr'], ['Stuhlweißenburg', 'de', 'HU', 'Székesfehérvár'], ['Erlau', 'de', 'HU', 'Eger'], ['Gran', 'de', 'HU', 'Esztergom'],
  // Poland
  ['Oels', 'de', 'PL', 'Oleśnica'], ['Brieg', 'de', 'PL', 'Brzeg'], ['Neisse', 'de', 'PL', 'Nysa'], ['Kolberg', 'de', 'PL', 'Kołobrzeg'], ['Marienburg', 'de', 'PL', 'Malbork'],
  ['Lötzen', 'de', 'PL', 'Giżycko'], ['Sagan', 'de', 'PL', 'Żagań'], ['Bunzlau', 'de', 'PL', 'Bolesławiec'], ['Lauban', 'de', 'PL', 'Lubań'], ['Glatz', 'de', 'PL', 'Kłodzko'],
  ['Kreuzburg', 'de', 'PL', 'Kluczbork'], ['Rastenburg', 'de', 'PL', 'Kętrzyn'], ['Marienwerder', 'de', 'PL', 'Kwidzyn'], ['Swinemünde', 'de', 'PL', 'Świnoujście'],
  ['Ratibor', 'de', 'PL', 'Racibórz'], ['Liegnitz', 'de', 'PL', 'Legnica'], ['Hirschberg', 'de', 'PL', 'Jelenia Góra'], ['Schweidnitz', 'de', 'PL', 'Świdnica'],
  ['Glogau', 'de', 'PL', 'Głogów'], ['Danzig', 'de', 'PL', 'Gdańsk'], ['Breslau', 'de', 'PL', 'Wrocław'], ['Stettin', 'de', 'PL', 'Szczecin'], ['Thorn', 'de', 'PL', 'Toruń'],
  ['Posen', 'de', 'PL', 'Poznań'], ['Krakau', 'de', 'PL', 'Kraków'], ['Warschau', 'de', 'PL', 'Warszawa'],
  // France
  ['Schlettstadt', 'de', 'FR', 'Sélestat'], ['Hagenau', 'de', 'FR', 'Haguenau'], ['Zabern', 'de', 'FR', 'Saverne'], ['Diedenhofen', 'de', 'FR', 'Thionville'],
  ['Saargemünd', 'de', 'FR', 'Sarreguemines'], ['Kolmar', 'de', 'FR', 'Colmar'], ['Mülhausen', 'de', 'FR', 'Mulhouse'], ['Straßburg', 'de', 'FR', 'Strasbourg'],
  ['Kamerijk', 'nl', 'FR', 'Cambrai'], ['Duinkerke', 'nl', 'FR', 'Dunkerque'], ['Dunkirk', 'en', 'FR', 'Dunkerque'], ['Rijsel', 'nl', 'FR', 'Lille'],
  ['Marseilles', 'en', 'FR', 'Marseille'], ['Lyons', 'en', 'FR', 'Lyon'],
  // Germany, Austria
  ['Sarrelouis', 'fr', 'DE', 'Saarlouis'], ['Spire', 'fr', 'DE', 'Speyer'], ['Trèves', 'fr', 'DE', 'Trier'], ['Mayence', 'fr', 'DE', 'Mainz'], ['Coblence', 'fr', 'DE', 'Koblenz'],
  ['Ratisbonne', 'fr', 'DE', 'Regensburg'], ['Aix-la-Chapelle', 'fr', 'DE', 'Aachen'], ['Cologne', 'en', 'DE', 'Köln'], ['Munich', 'en', 'DE', 'München'],
  ['Brunswick', 'en', 'DE', 'Braunschweig'], ['Hanover', 'en', 'DE', 'Hannover'], ['Nuremberg', 'en', 'DE', 'Nürnberg'], ['Slesvig', 'da', 'DE', 'Schleswig'],
  ['Flensborg', 'da', 'DE', 'Flensburg'], ['Constance', 'en', 'DE', 'Konstanz'], ['Brême', 'fr', 'DE', 'Bremen'], ['Hambourg', 'fr', 'DE', 'Hamburg'], ['Dresde', 'fr', 'DE', 'Dresden'],
  ['Kismarton', 'hu', 'AT', 'Eisenstadt'], ['Velikovec', 'sl', 'AT', 'Völkermarkt'], ['Beljak', 'sl', 'AT', 'Villach'], ['Vienne', 'fr', 'AT', 'Wien'], ['Salzbourg', 'fr', 'AT', 'Salzburg'],
  // Nordic and Baltic countries
  ['Elsinore', 'en', 'DK', 'Helsingør'], ['Apenrade', 'de', 'DK', 'Aabenraa'], ['Sonderburg', 'de', 'DK', 'Sønderborg'], ['Hadersleben', 'de', 'DK', 'Haderslev'],
  ['Copenhague', 'fr', 'DK', 'København'],
  ['Borgå', 'sv', 'FI', 'Porvoo'], ['Lojo', 'sv', 'FI', 'Lohja'], ['Karleby', 'sv', 'FI', 'Kokkola'], ['Nyslott', 'sv', 'FI', 'Savonlinna'], ['Raumo', 'sv', 'FI', 'Rauma'],
  ['Kervo', 'sv', 'FI', 'Kerava'], ['Träskända', 'sv', 'FI', 'Järvenpää'], ['Tavastehus', 'sv', 'FI', 'Hämeenlinna'], ['Villmanstrand', 'sv', 'FI', 'Lappeenranta'],
  ['Uleåborg', 'sv', 'FI', 'Oulu'], ['Åbo', 'sv', 'FI', 'Turku'], ['Tammerfors', 'sv', 'FI', 'Tampere'], ['Björneborg', 'sv', 'FI', 'Pori'],
  ['Pernau', 'de', 'EE', 'Pärnu'], ['Fellin', 'de', 'EE', 'Viljandi'], ['Wesenberg', 'de', 'EE', 'Rakvere'], ['Arensburg', 'de', 'EE', 'Kuressaare'], ['Hapsal', 'de', 'EE', 'Haapsalu'],
  ['Werro', 'de', 'EE', 'Võru'], ['Dorpat', 'de', 'EE', 'Tartu'], ['Reval', 'de', 'EE', 'Tallinn'],
  ['Windau', 'de', 'LV', 'Ventspils'], ['Wolmar', 'de', 'LV', 'Valmiera'], ['Tuckum', 'de', 'LV', 'Tukums'], ['Goldingen', 'de', 'LV', 'Kuldīga'], ['Rositten', 'de', 'LV', 'Rēzekne'],
  ['Mitau', 'de', 'LV', 'Jelgava'], ['Libau', 'de', 'LV', 'Liepāja'], ['Dünaburg', 'de', 'LV', 'Daugavpils'],
  ['Tauroggen', 'de', 'LT', 'Tauragė'], ['Memel', 'de', 'LT', 'Klaipėda'], ['Kauen', 'de', 'LT', 'Kaunas'], ['Schaulen', 'de', 'LT', 'Šiauliai'], ['Wilna', 'de', 'LT', 'Vilnius'],
  // Romania, Iberia, Luxembourg, the Netherlands, Greece
  ['Schässburg', 'de', 'RO', 'Sighişoara'], ['Mediasch', 'de', 'RO', 'Mediaş'], ['Fogarasch', 'de', 'RO', 'Făgăraş'], ['Broos', 'de', 'RO', 'Orăştie'],
  ['Bistritz', 'de', 'RO', 'Bistriţa'], ['Hermannstadt', 'de', 'RO', 'Sibiu'], ['Kronstadt', 'de', 'RO', 'Braşov'], ['Klausenburg', 'de', 'RO', 'Cluj-Napoca'],
  ['Temeswar', 'de', 'RO', 'Timişoara'], ['Großwardein', 'de', 'RO', 'Oradea'],
  ['Figueras', 'es', 'ES', 'Figueres'], ['Vich', 'es', 'ES', 'Vic'], ['Játiva', 'es', 'ES', 'Xàtiva'], ['Saragossa', 'en', 'ES', 'Zaragoza'], ['Corunna', 'en', 'ES', 'A Coruña'],
  ['Seville', 'en', 'ES', 'Sevilla'], ['Lisbonne', 'fr', 'PT', 'Lisboa'], ['Oporto', 'en', 'PT', 'Porto'],
  ['Düdelingen', 'de', 'LU', 'Dudelange'], ['Differdingen', 'de', 'LU', 'Differdange'],
  ['Flushing', 'en', 'NL', 'Vlissingen'], ['Nimègue', 'fr', 'NL', 'Nijmegen'], ['Bois-le-Duc', 'fr', 'NL', "'s-Hertogenbosch"], ['Leyde', 'fr', 'NL', 'Leiden'],
  ['Salonica', 'en', 'GR', 'Thessaloníki'],
];

/** What the set left out of EXONYMS, and why (printed by the eval's run). */
export interface LeftOut { exonym: string; cc: string; local: string; why: string }

let leftOut: LeftOut[] = [];
export const townExonymsLeftOut = (): readonly LeftOut[] => leftOut;

/** The most populous place per `CC|folded name` of `names(p)` (loadPlaces lists the most populous first). */
function placeByName(places: readonly Place[], names: (p: Place) => readonly string[]): Map<string, Place> {
  const m = new Map<string, Place>();
  for (const p of places) for (const n of names(p)) { const k = `${p.cc}|${foldText(n)}`; if (!m.has(k)) m.set(k, p); }
  return m;
}

export function townExonymCases(): PeopleCase[] {
  const places = loadPlaces();
  const byName = placeByName(places, (p) => [p.name, p.ascii]);
  const ownNames = new Set(places.flatMap((p) => [foldText(p.name), foldText(p.ascii)]));
  // (GeoNames names some cities in English, `Florence`, `Munich`: their local name is among their alternate names)
  const byAlt = placeByName(places, (p) => p.alts);
  const out: PeopleCase[] = [];
  leftOut = [];
  for (const [exonym, lang, cc, local] of EXONYMS) {
    const p = byName.get(`${cc}|${foldText(local)}`) ?? byAlt.get(`${cc}|${foldText(local)}`);
    if (!p) { leftOut.push({ exonym, cc, local, why: 'no place of that name in cities500' }); continue; }
    if (ownNames.has(foldText(exonym))) { leftOut.push({ exonym, cc, local, why: 'the exonym is a place\'s own name' }); continue; }
    const truth = truthOf(p, [p.name, p.ascii, local]);
    const asked: [string, PeopleCase['query']][] = [
      ['exonym alone', { address: exonym }],
      ['exonym, country', { address: `${exonym}, ${countryName(cc, 'en')}` }],
      ['city field', { city: exonym }],
    ];
    for (const [pattern, query] of asked) {
      // (one half per pair: its three patterns are one name asked three ways)
      const c = makeCase(TOWN_EXONYMS_SET, `${cc}:${local}:${lang}:${pattern}`, cc, pattern, query, truth);
      out.push({ ...c, half: mixedHalfOf(`${TOWN_EXONYMS_SET}:${cc}:${local}:${lang}`) });
    }
  }
  return out;
}
