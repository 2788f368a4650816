/**
 * Golden recipient blocks: for each of the 34 destinations a domestic block, an international
 * block with additional data in one country-name language, and an international block in a
 * second language. The expected lines were reviewed against the rules in docs/recipient-block.md.
 */
import { describe, expect, it } from 'vitest';
import { formatRecipientBlock } from '../../../src/engine/lines/index.ts';
import { SUPPORTED_DESTINATIONS } from '../../../src/engine/lines/iso3166.ts';
import { SAMPLES } from './samples.ts';
import { linesOf } from './helpers.ts';

const GOLDEN: Record<string, { domestic: string[]; intlAdditional: string[]; intl: string[] }> = {
  AR: {
    domestic: ["Cerrito 1250","Retiro","C1010AAZ BUENOS AIRES","Ciudad Autónoma de Buenos Aires"],
    intlAdditional: ["Cerrito 1250","Piso 4 Dpto A","Retiro","C1010AAZ BUENOS AIRES","CIUDAD AUTÓNOMA DE BUENOS AIRES","ARGENTINA"],
    intl: ["Cerrito 1250","Retiro","C1010AAZ BUENOS AIRES","CIUDAD AUTÓNOMA DE BUENOS AIRES","ARGENTINA"],
  },
  AU: {
    domestic: ["1 George Street","SYDNEY NSW 2000"],
    intlAdditional: ["Level 7","1 George Street","SYDNEY NSW 2000","AUSTRALIA"],
    intl: ["1 George Street","SYDNEY NSW 2000","AUSTRALIEN"],
  },
  AT: {
    domestic: ["Stephansplatz 1","1010 Wien"],
    intlAdditional: ["Stiege 2, Tür 15","Stephansplatz 1","1010 WIEN","ÖSTERREICH"],
    intl: ["Stephansplatz 1","1010 WIEN","AUTRICHE"],
  },
  BE: {
    domestic: ["Rue de la Loi 16","1000 Bruxelles"],
    intlAdditional: ["Bâtiment B","Rue de la Loi 16","1000 BRUXELLES","BELGIË"],
    intl: ["Rue de la Loi 16","1000 BRUXELLES","BELGIQUE"],
  },
  BR: {
    domestic: ["Avenida Paulista, 1578","Bela Vista","SÃO PAULO - SP","01310-200"],
    intlAdditional: ["Avenida Paulista, 1578, Sala 12","Bela Vista","SÃO PAULO - SP","01310-200","BRASIL"],
    intl: ["Avenida Paulista, 1578","Bela Vista","SÃO PAULO - SP","01310-200","BRAZIL"],
  },
  CA: {
    domestic: ["111 WELLINGTON STREET","OTTAWA ON  K1A 0A9"],
    intlAdditional: ["SUITE 200","111 WELLINGTON STREET","OTTAWA ON  K1A 0A9","CANADA"],
    intl: ["111 WELLINGTON STREET","OTTAWA ON  K1A 0A9","CANADA"],
  },
  CH: {
    domestic: ["Bundesplatz 3","3005 Bern"],
    intlAdditional: ["Eingang Nord","Bundesplatz 3","3005 BERN","SCHWEIZ"],
    intl: ["Bundesplatz 3","3005 BERN","SUISSE"],
  },
  CY: {
    domestic: ["Agiou Andreou 12","3042 Limassol"],
    intlAdditional: ["Flat 3","Agiou Andreou 12","CY-3042 LIMASSOL","CYPRUS"],
    intl: ["Agiou Andreou 12","CY-3042 LIMASSOL","CHYPRE"],
  },
  CZ: {
    domestic: ["Jindřišská 909/14","110 00  PRAHA 1"],
    intlAdditional: ["Budova A","Jindřišská 909/14","110 00  PRAHA 1","TSCHECHIEN"],
    intl: ["Jindřišská 909/14","110 00  PRAHA 1","CZECHIA"],
  },
  DE: {
    domestic: ["Platz der Republik 1","11011 Berlin"],
    intlAdditional: ["Eingang West","Platz der Republik 1","11011 BERLIN","DEUTSCHLAND"],
    intl: ["Platz der Republik 1","11011 BERLIN","ALLEMAGNE"],
  },
  DK: {
    domestic: ["Vesterbrogade 12","1620 København V"],
    intlAdditional: ["Vesterbrogade 12, 3. tv.","1620 KØBENHAVN V","DENMARK"],
    intl: ["Vesterbrogade 12","1620 KØBENHAVN V","DÄNEMARK"],
  },
  EE: {
    domestic: ["Narva mnt 1","10117 Tallinn"],
    intlAdditional: ["korter 5","Narva mnt 1","10117 TALLINN","ESTONIA"],
    intl: ["Narva mnt 1","10117 TALLINN","ESTLAND"],
  },
  ES: {
    domestic: ["Calle Mayor, 14","28013 MADRID"],
    intlAdditional: ["Calle Mayor, 14, 3º B","28013 MADRID","ESPAGNE"],
    intl: ["Calle Mayor, 14","28013 MADRID","ESPAÑA"],
  },
  BG: {
    domestic: ["ul. Georgi Rakovski 108","1000 Sofia"],
    intlAdditional: ["ul. Georgi Rakovski 108, et. 2, ap. 5","1000 SOFIA","BULGARIA"],
    intl: ["ul. Georgi Rakovski 108","1000 SOFIA","BULGARIE"],
  },
  FI: {
    domestic: ["Mannerheimintie 11","00100 HELSINKI"],
    intlAdditional: ["Mannerheimintie 11 B 12","00100 HELSINKI","FINLAND"],
    intl: ["Mannerheimintie 11","00100 HELSINKI","FINNLAND"],
  },
  FR: {
    domestic: ["99 RUE DE RIVOLI","75001 PARIS"],
    intlAdditional: ["Escalier C","99 RUE DE RIVOLI","75001 PARIS","FRANCE"],
    intl: ["99 RUE DE RIVOLI","75001 PARIS","FRANKRIJK"],
  },
  GB: {
    domestic: ["10 Downing Street","LONDON","SW1A 2AA"],
    intlAdditional: ["Flat 2","10 Downing Street","LONDON","SW1A 2AA","UNITED KINGDOM"],
    intl: ["10 Downing Street","LONDON","SW1A 2AA","VEREINIGTES KÖNIGREICH"],
  },
  GR: {
    domestic: ["Σταδίου 10","105 64 Αθήνα"],
    intlAdditional: ["Όροφος 2","Σταδίου 10","105 64 ΑΘΗΝΑ","GREECE"],
    intl: ["Σταδίου 10","105 64 ΑΘΗΝΑ","GRÈCE"],
  },
  HU: {
    domestic: ["BUDAPEST","VIRÁG TÉR 3.","1037"],
    intlAdditional: ["BUDAPEST","VIRÁG TÉR 3. IV. 61","1037","UNGARN"],
    intl: ["BUDAPEST","VIRÁG TÉR 3.","1037","HUNGARY"],
  },
  IE: {
    domestic: ["8 Bishop Street","DUBLIN 8","CO. DUBLIN","D02 TD99"],
    intlAdditional: ["Apartment 4","8 Bishop Street","DUBLIN 8","CO. DUBLIN","D02 TD99","IRELAND"],
    intl: ["8 Bishop Street","DUBLIN 8","CO. DUBLIN","D02 TD99","IRLANDE"],
  },
  IT: {
    domestic: ["Via del Corso 320","00186 ROMA RM"],
    intlAdditional: ["Scala B","Via del Corso 320","00186 ROMA RM","ITALIEN"],
    intl: ["Via del Corso 320","00186 ROMA RM","ITALIE"],
  },
  HR: {
    domestic: ["Ilica 1","10000 Zagreb"],
    intlAdditional: ["kat 3","Ilica 1","HR-10000 ZAGREB","CROATIA"],
    intl: ["Ilica 1","HR-10000 ZAGREB","KROATIEN"],
  },
  LI: {
    domestic: ["Städtle 38","9490 Vaduz"],
    intlAdditional: ["2. Stock","Städtle 38","9490 VADUZ","LIECHTENSTEIN"],
    intl: ["Städtle 38","9490 VADUZ","LIECHTENSTEIN"],
  },
  LT: {
    domestic: ["Gedimino pr. 7","01103 Vilnius"],
    intlAdditional: ["bt. 4","Gedimino pr. 7","LT-01103 VILNIUS","LITHUANIA"],
    intl: ["Gedimino pr. 7","LT-01103 VILNIUS","LITAUEN"],
  },
  LU: {
    domestic: ["71, route de Longwy","1940 Luxembourg"],
    intlAdditional: ["Bâtiment C","71, route de Longwy","L-1940 LUXEMBOURG","LUXEMBOURG"],
    intl: ["71, route de Longwy","L-1940 LUXEMBOURG","LUXEMBURG"],
  },
  LV: {
    domestic: ["Brīvības iela 19","Rīga, LV-1010"],
    intlAdditional: ["dz. 5","Brīvības iela 19","RĪGA, LV-1010","LATVIA"],
    intl: ["Brīvības iela 19","RĪGA, LV-1010","LETTLAND"],
  },
  MT: {
    domestic: ["12 Triq il-Merkanti","Valletta","VLT 1117"],
    intlAdditional: ["Flat 1","12 Triq il-Merkanti","VALLETTA","VLT 1117","MALTA"],
    intl: ["12 Triq il-Merkanti","VALLETTA","VLT 1117","MALTE"],
  },
  NL: {
    domestic: ["Dam 1","1012 JS  AMSTERDAM"],
    intlAdditional: ["Bus 2","Dam 1","1012 JS  AMSTERDAM","NEDERLAND"],
    intl: ["Dam 1","1012 JS  AMSTERDAM","PAYS-BAS"],
  },
  PL: {
    domestic: ["ul. Marszałkowska 140","00-061 WARSZAWA"],
    intlAdditional: ["lok. 16","ul. Marszałkowska 140","00-061 WARSZAWA","POLEN"],
    intl: ["ul. Marszałkowska 140","00-061 WARSZAWA","POLAND"],
  },
  PT: {
    domestic: ["Rua Augusta 14","1100-053 LISBOA"],
    intlAdditional: ["Rua Augusta 14, 2º Esq.","1100-053 LISBOA","PORTUGAL"],
    intl: ["Rua Augusta 14","1100-053 LISBOA","PORTUGAL"],
  },
  RO: {
    domestic: ["Strada Lipscani nr. 5","030031 BUCUREȘTI","Sector 3"],
    intlAdditional: ["Strada Lipscani nr. 5, bl. A, ap. 3","030031 BUCUREȘTI","Sector 3","ROMANIA"],
    intl: ["Strada Lipscani nr. 5","030031 BUCUREȘTI","Sector 3","ROUMANIE"],
  },
  SE: {
    domestic: ["Drottninggatan 53","111 21 STOCKHOLM"],
    intlAdditional: ["c/o Andersson","Drottninggatan 53","111 21 STOCKHOLM","SWEDEN"],
    intl: ["Drottninggatan 53","111 21 STOCKHOLM","SCHWEDEN"],
  },
  SI: {
    domestic: ["Slovenska cesta 32","1000 Ljubljana"],
    intlAdditional: ["nadstropje 2","Slovenska cesta 32","1000 LJUBLJANA","SLOVENIA"],
    intl: ["Slovenska cesta 32","1000 LJUBLJANA","SLOWENIEN"],
  },
  SK: {
    domestic: ["Námestie SNP 35","811 01  BRATISLAVA"],
    intlAdditional: ["Budova B","Námestie SNP 35","811 01  BRATISLAVA","SLOWAKEI"],
    intl: ["Námestie SNP 35","811 01  BRATISLAVA","SLOVAKIA"],
  },
};

describe('golden recipient blocks, 34 destinations', () => {
  it('covers every supported destination', () => {
    expect(Object.keys(GOLDEN).sort()).toEqual([...SUPPORTED_DESTINATIONS].sort());
    expect(Object.keys(SAMPLES).sort()).toEqual([...SUPPORTED_DESTINATIONS].sort());
  });

  for (const cc of SUPPORTED_DESTINATIONS) {
    const s = SAMPLES[cc]!;
    const g = GOLDEN[cc]!;
    describe(cc, () => {
      it('domestic: no country line', () => {
        const r = formatRecipientBlock({ countrycode: cc, sendercountrycode: cc, ...s.address });
        expect(r.addresslinestatuscode).toBe(0);
        expect(linesOf(r)).toEqual(g.domestic);
      });
      it(`international from ${s.sender}, language "${s.langs[0]}", with additional data`, () => {
        const r = formatRecipientBlock({
          countrycode: cc, sendercountrycode: s.sender, countrynamelanguage: s.langs[0],
          ...s.address, additionaldata: s.additionaldata,
        });
        expect(r.addresslinestatuscode).toBe(0);
        expect(linesOf(r)).toEqual(g.intlAdditional);
        expect(linesOf(r).some((l) => l.toUpperCase().includes(s.additionaldata.toUpperCase()))).toBe(true);
      });
      it(`international from ${s.sender}, language "${s.langs[1]}"`, () => {
        const r = formatRecipientBlock({
          countrycode: cc, sendercountrycode: s.sender, countrynamelanguage: s.langs[1], ...s.address,
        });
        expect(r.addresslinestatuscode).toBe(0);
        expect(linesOf(r)).toEqual(g.intl);
      });
      it('unused lines are empty strings and keys are in spec order', () => {
        const r = formatRecipientBlock({ countrycode: cc, sendercountrycode: cc, ...s.address });
        expect(Object.keys(r)).toEqual([
          'addressline1', 'addressline2', 'addressline3', 'addressline4', 'addressline5', 'addressline6',
          'addresslinestatuscode', 'addresslinestatusmessage',
        ]);
        const all = [r.addressline1, r.addressline2, r.addressline3, r.addressline4, r.addressline5, r.addressline6];
        expect(all.slice(g.domestic.length).every((l) => l === '')).toBe(true);
      });
    });
  }
});
