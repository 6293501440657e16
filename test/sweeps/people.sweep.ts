import { describe, expect, it } from "vitest";
import {
  formatPeopleMisses,
  formatPeopleReproduction,
  peopleFairData,
  peopleMulticlassPool,
} from "../../src/cli/commands/reproduce-people.ts";
import {
  mergePeopleReproductions,
  PEOPLE_FAMILIES,
  PEOPLE_SETTINGS,
  type PeopleFamily,
  type PeopleReproduction,
  reproducePeople,
} from "../../src/experiments/reproduce-people.ts";
import { PERSON_TYPES, type PersonType } from "../../src/oracle/people.ts";
import { prepareStudyData } from "../../src/server/kinds/binary/data.ts";
import type { StudyAnswerModel } from "../../src/server/study/config.ts";
import { cancerDiagnosisConfig } from "../../src/server/study/template.ts";
import { recordFigures } from "./figures.ts";
import { recordings } from "./recorded.ts";

/** This file's cells, read from their recordings when their inputs did not change (recorded.ts). */
const recorded = recordings(import.meta.url);

/**
 * Issue 26's targets for the panel of simulated people, measured as `elicit reproduce people`
 * measures them (30 truths per family, the built-in study's pool shown as whole people out of
 * 100, DLPM and LPM k = 3 on a multiclass study of iris, 100 people per class, and lambda and
 * the whole fair metric on a fairness study of arrests by colour; the engine never told who
 * answers). For every person but the random responder, every adaptive cell must have
 * coverage of the 90% region >= 85%, error p95 <= 2x tolerance and at most 30 questions
 * (binary, DLPM and lambda; LPM and the whole fair metric, which the issue does not bound, at
 * most their studies' budgets, 45 and 30); the random responder must be flagged in >= 95% of
 * runs; no cell may have a silent miss (error above 2x tolerance, nothing flagged), and no
 * adaptive run shows a dominated pair.
 *
 * The targets are the issue's, not tuned here. Not every cell meets them yet: the cells that
 * do not are listed in KNOWN_GAPS, and the test fails both when another cell misses a target
 * (a regression) and when a listed cell meets it (then the list, the README and the issue's
 * note must say so). The README quotes the table (docs/figures/reproduce-people.txt).
 */
const KNOWN_GAPS = [
  // binary-threshold (tolerance 0.05, learned-flipping, the 4096-point grid of new studies,
  // every threshold classifier as shown offered to the questions): no gap but the random
  // responder's coverage, as in every family. (Before the last,
  // the careful person took 12.9 questions on average, its runs often flagged "no informative
  // question", and 20% flips reached 0.1323 at p95.) Under learned-lean, the default before,
  // 20% flips passed here (p95 0.0904) by this draw's luck: on the tuning draws, with people
  // of their own (`personSeed`), their p95 was above 0.1 on eight of tune-1..10 (0.0568 to
  // 0.3728, silent misses on tune-1 and tune-6), and told the person's flips (`--answer-model
  // flips:0.2`, a diagnosis) the engine reached 0.0204 / 0.0343 / 0.0309 on tune-1..3: that
  // tail was the price of learning this person. Under learned-flipping (a sharp flipper among
  // the kinds of person, FLIPPING_LAPSES) it is within 0.1 on all ten (0.0429 to 0.0994), and
  // here 0.0748; the price is a few more questions (the careful person's mean 10.7 -> 11.4
  // here, within the 12) and a random run left unflagged on three of the ten tuning
  // draws (one under learned-lean), none here; with the dashboard's mark of answers hard to
  // tell from a coin (`nearCoin`), every random run on all ten is flagged (binary-linear's
  // too: `--people random --truth-seed tune-N`, N = 1..10).
  // Every family: the random responder's region held its drawn truth in 33-83% of runs while
  // it was the belief the coin's Phase II answers left (six gaps, flagged in 100% of runs);
  // a study now states nothing measured for a coin (`unmeasuredReading`: the whole space),
  // and a random run Phase III does not take for a coin keeps the belief's region.
  // binary-linear (tolerance 0.02 rad, learned-flipping-moderate, every threshold classifier
  // as shown offered to the questions): 20% flips widen the tail. (Before every point as shown, every
  // run ended with no informative question left, flagged, and lapses, a side bias and 5-20%
  // flips were above twice the tolerance at p95.) A random responder's run (trial 26) stopped
  // on the tolerance far off its truth with 4 of 15 Phase III answers against its result and
  // both repeats the same: 13 of 17, a chance of 0.025 for a coin, under the coin flag's
  // level of 0.05 (a coin passes that test in up to one run in twenty, one in forty at 17
  // answers, however long Phase III is). It was this cell's silent miss until the dashboard
  // marked answers told from a coin's at 0.05 but not at 0.01 (`nearCoin`, the usual
  // stricter level, not fitted here): on held-out-1 that mark also caught the threshold's
  // silent random responder (3 of 15 against, one repeat changed, p 0.025), and on tune-1,
  // held-out-1 and here (binary, lambda; DLPM on tune-1) it marked 98 runs of people other
  // than the coin that nothing flagged, all within the target: 67 of 5-20% flips, 10 of
  // lapses, none of a careful person. On tune-1 and tune-2, whose people have seeds of their own
  // (`personSeed`), every random run was flagged before it, and 20% flips leave one silent
  // miss on each (tune-1's: 2 of 15 against, one repeat changed, p 0.006: told from a coin).
  // A check of Phase III against the engine's own reading of the person (more answers
  // against the result than half its learned lapse, at least 5%, gives with a chance below
  // 1%; not adopted) flagged trial 26 (learned lapse 0.112), but neither tune-1's silent 20%
  // flipper (lapse 0.046) nor held-out-1's random responder (lapse 0.348), and flagged 18 runs
  // within the target anew (binary, lambda on tune-1, held-out-1 and here, DLPM on tune-1);
  // with changed repeats counted as answers against, 72.
  // 20% flips are a limit of 30 questions, not of learning the person alone: told the person's
  // flips (`--people flips-20 --answer-model flips:0.2`, a diagnosis), the engine's p95 is
  // 0.0420 / 0.1048 / 0.0248 on tune-1..3 (learned-lean: 0.2651 / 0.3085 / 0.2816). A sharp
  // flipper among learned-lean's kinds of person (lapse 0.4, sharpness 20, 20% prior)
  // recovered part of it (0.0911 / 0.0847 / 0.0930) but took lapses and a side bias nearer
  // the target, and left a random run silent on tune-1: not adopted here (the threshold's
  // learned-flipping has it, at 30% prior weight). The threshold's own model (30%, sharpness
  // 20) took lapses' and the tired person's p95 above 0.04 on five of tune-1..6; with the
  // flipper 3 times as sharp as the temperature (`learned-flipping-moderate`, chosen on
  // tune-1..6: MODERATE_FLIPPING_LAPSES says how) 20% flips' p95 is 0.0838-0.1499 on
  // tune-1..5 and within on tune-6, no other cell but a side bias's coverage on tune-4 (83%)
  // short of the targets, and no silent miss (learned-lean: 20% flips 0.0533-0.3301 with
  // silent misses on tune-1 and tune-2, 10% flips 0.0491 on tune-2, a side bias covered in
  // 80% on tune-2 and tune-4). Here, against learned-lean: 20% flips' p95 / max 0.1629 /
  // 0.6517 -> 0.2027 / 0.3404, 10% flips' 0.0273 / 0.3234 -> 0.0316 / 0.0583, no other cell
  // short before or after; on held-out-2, 20% flips 0.3950 -> 0.1019 and a silent 10%
  // flipper's run (error 0.0473, radius 0.0092 after 13 questions) gone. The trial-26 story
  // above is learned-lean's.
  // A searcher told the person's flips, with an exact posterior, cuts anywhere and all 30
  // questions (test/sweeps/ideal-searcher.sweep.ts) ends above 0.04 in more than 5% of its
  // runs, so even its cells of 30 runs meet this target in at most about half of the draws.
  "binary-linear flips-20: error p95 0.2027 > 0.04",
  // DLPM k = 3 (a multiclass study of iris, tolerance 0.05, budget 25, learned-tiring, the
  // engine on the counts shown): 20% flips widen the tail (those runs are mostly flagged: no
  // silent miss). Under learned-lean, the default before (chosen against it on the tuning
  // draws alone, `multiclassAnswerModel`), this draw had a side bias's p95 at 0.1037 too, and
  // 20% flips' at 0.1486. Told the person's flips (`--answer-model flips:0.2`, a diagnosis)
  // the engine does no better: p95 0.2013 / 0.1552 / 0.1676 on tune-1..3 (learned-tiring
  // 0.1758 / 0.1576 on tune-1 / tune-2); at 30 questions 0.1917 / 0.1338 on tune-1 / tune-2.
  // So does a searcher told the person's flips, with an exact posterior and cuts anywhere
  // (test/sweeps/ideal-searcher.sweep.ts): above 0.1 in more than 8% of its runs at 25
  // questions and more than 5% at 30, its cells of 30 runs within the target in at most 30%
  // and 60% of the draws.
  // On held-out-1 (`--truth-seed held-out-1`, a draw used neither to tune nor to assert) the
  // tired person's DLPM cell is above the target too: p95 / max 0.1436 / 0.2099 (here within;
  // within on tune-1..6, held-out-2 and held-out-3 too, 0.0627 to 0.0881: that draw's tail),
  // and 20% flips' 0.1809 / 0.2267. Otherwise the cells of binary, DLPM, LPM and lambda short
  // of the targets there are the ones short here, and no run of theirs there is a silent miss.
  "diagonal-linear flips-20: error p95 0.1740 > 0.1",
  // LPM k = 3 (a multiclass study of iris, tolerance 0.1 on each of 6 costs, budget 45,
  // learned-lean, on the counts shown): 45 questions do not pin six costs to 0.2 for a
  // person who tires or flips a fifth of their answers; their regions hold the truth (87% and
  // 93%) since the particles weigh each answer with the kinds of person marginalised. At the
  // budget of 30 before (chosen on the tuning draws, MULTICLASS_LINEAR_DEFAULTS), this draw
  // had 5% and 10% flips above 0.2 too (p95 0.2966 and 0.2361), the tired person at 0.2386
  // and 20% flips at 0.5574. Told the person's flips (`--answer-model flips:0.2`, a
  // diagnosis), 20% flips stay above 0.2 at 45 questions: p95 0.3807 / 0.2570 / 0.3068 on
  // tune-1..3 (learned-lean 0.4702 / 0.4599 on tune-1 / tune-2). A searcher told the
  // person's flips, with particles, cuts anywhere and all 45 questions
  // (test/sweeps/ideal-searcher.sweep.ts) is at the edge there only when also told how the
  // panel draws its truths (its cells of 30 runs within the target in about half to three
  // quarters of the draws); with a uniform prior on the costs' directions its p95 is near the
  // engine's told the flips (0.2901 / 0.2972 on tune-a / tune-b) and its cells seldom meet
  // the target. The rest of this gap is the price of learning the person. Neither more
  // particle moves per answer (12 instead of 4: tune-1 flips-20 p95 0.4730, fatigue 0.2315)
  // nor cuts chosen for the least expected variance under the person's model (flips-20
  // 0.3506 but side bias 0.1817 covered in 83%, tie band 0.1810 against 0.1085) nor
  // `learned-flipping` (flips-20 0.4346, side bias 0.2476 covered in 83%) closed it on tune-1.
  // Nor do 60 questions (`--budget linear=60`, tune-1; not adopted): the tired person's p95
  // 0.1993 -> 0.1737 and 20% flips' 0.4702 -> 0.4118, but a lapsing person's run ended
  // unflagged at 0.2039 (none at 45) and the side bias's region held in 90% (100% at 45);
  // on tune-2 / tune-3 the tired person's p95 / max at 60 was 0.1734 / 0.1862 and 0.1833 /
  // 0.3362 (0.1812 and 0.1678 at 45), 20% flips' 0.3190 / 0.3641: later answers say less.
  // Nor does DLPM's `learned-tiring` at 45 (tune-1, `--answer-model learned-tiring`; not
  // adopted): the tired person's p95 / max 0.1993 / 0.2413 -> 0.2103 / 0.2590, 20% flips'
  // 0.4702 -> 0.4645 with coverage 93% -> 83%, and the side bias's region held in 80% (100%).
  // The tired person's cell is within the target on most draws but not all: under the
  // default its p95 / max on tune-1..8 (`--families linear --people fatigue --truth-seed
  // tune-N`) was 0.1993 / 0.2413, 0.1812 / 0.1945, 0.1678 / 0.1986, 0.1659 / 0.1906, 0.2350
  // / 0.2621, 0.2587 / 0.3137, 0.1512 / 0.1961 and 0.1933 / 0.2098: above 0.2 on tune-5 and
  // tune-6, as here. `learned-tiring` with its tired kind growing 10% per question, 3 times
  // as sharp as the temperature at first and 30% of the prior (a scratch change, not kept):
  // 0.1645, 0.1612, 0.1593, 0.1706, 0.1995, 0.2425, 0.2138 (a silent miss) and 0.1656; on
  // tune-1 it took probit's p95 from 0.0712 to 0.0986 and 20% flips' from 0.4702 to 0.4996.
  // At 10% prior 0.2046, with 6 times the sharpness 0.2476 (tune-1).
  // Two tired kinds instead, one tiring 5% and one 20% per question (1.5 times as sharp as the
  // temperature at first, 15% prior weight each; a scratch change, not kept): the tired
  // person's p95 on tune-1..8 was 0.1824, 0.1783, 0.1875, 0.1648, 0.1503, 0.1818, 0.1786 and
  // 0.1633, all within; but 10% flips' went from 0.1100 / 0.1172 / 0.1003 to 0.1022 / 0.1831 /
  // 0.1214 on tune-1..3 and 5% flips' from 0.0337 / 0.0364 to 0.0544 / 0.0545 on tune-1 /
  // tune-2 (a flipper's slips read as tiring), and here the tired person's p95 went 0.2522 ->
  // 0.1791 but 10% flips' 0.0877 -> 0.2215 (max 0.4572): a gap for a gap. At half the weight
  // (7.5% each) 10% flips' p95 was 0.1170 / 0.1720 / 0.1385 on tune-1..3, the tired person's
  // 0.1426 / 0.1771 on tune-5 / tune-6; but on the whole panel of tune-1 / tune-2 the tired
  // person's was 0.2376 / 0.1908 (learned-lean 0.1993 / 0.1812; 20% flips 0.4189 / 0.3417,
  // every other cell within, every region holding the truth in at least 93% of runs): above
  // where learned-lean was within. With a sharp flipper besides (flipping 10% of
  // answers, 10% prior weight, 20 or 3 times as sharp as the temperature): 10% flips 0.0729 /
  // 0.1070 / 0.1186 or 0.0850 / 0.1464 / 0.1172 on tune-1..3, the tired person 0.1521 / 0.2236
  // or 0.1948 / 0.1670 on tune-5 / tune-6. A tired person and a flipper pull LPM's prior
  // opposite ways, as a side bias and a flipper pull lambda's (below).
  // They pull the questions apart too. Scored at the person's posterior mean temperature instead
  // of their mean sharpness (`selectionModel`; a scratch change, not kept, as on the whole fair
  // metric below), the tired person's p95 / max on tune-5 / tune-6 was 0.1860 / 0.3510 and
  // 0.1459 / 0.2619, within (learned-lean 0.2350 and 0.2587), but 10% flips' 0.2773 / 0.3726 (a
  // silent miss) and 0.2462 / 0.4215 (learned-lean 0.1503 / 0.2345 and 0.1376 / 0.4030); at the
  // geometric mean the tired person 0.1585 / 0.2557 and 10% flips 0.1211 / 0.2999 (a silent
  // tired run on tune-6).
  // The data leave room: the best 45 questions for the tired person, chosen knowing the truth
  // and the person (`lpmDesignBound`, the ideal-searcher sweep's "LPM's noisy people": the
  // Cramer-Rao bound of the best design of the study's kind of questions, on the counts shown),
  // leave an error p95 / max of 0.0574 / 0.1143 on this draw (tune-1 / tune-2 / held-out-1:
  // 0.0548 / 0.0512 / 0.0518), the probit person's 0.0350 / 0.0911 (engine 0.1161 / 0.1459).
  // Unlike the whole fair metric's cells, this one is the engine's shortfall, not the budget's.
  // Where the engine loses it (this draw, scratch changes, not kept; error p50 / p95 / max):
  // learned-lean 0.1187 / 0.2522 / 0.2672; with a tired kind among its people as sharp and
  // tiring as this person (lapse 0.02, 1.5 times as sharp as the temperature, temperature
  // growing 10% per question) at 10% prior weight 0.1174 / 0.2357 / 0.3010, at 50% 0.0960 /
  // 0.2007 / 0.2608; told the person (that kind at 99%) 0.1092 / 0.2063 / 0.5693 (tune-1:
  // 0.0824 / 0.2154 / 0.2460), its runs stopping on the tolerance after 40.4 questions on
  // average; told, with 4000 particles instead of 1000, 0.0751 / 0.1465 / 0.2393; told, with 64
  // candidate samples and 512 scoring samples, 0.0775 / 0.2051 / 0.2175; learned-lean with 2000
  // or 4000 particles 0.2964 / 0.3889 and 0.2141 / 0.2671 (p50 0.1164 and 0.1192). Told the
  // probit person (a logistic of temperature 0.029, no lapses) 0.0394 / 0.0868 / 0.1343. So
  // even told the person, with four times the particles, the engine's median error is 2.7
  // times the best questions' (0.0281): its search and its particle posterior hold this cell
  // before its reading of the person does.
  // More belief draws per question, under learned-lean (scratch changes, not kept; the
  // tired person's p95 / max on eight draws, this one, tune-5..8 and other-a..c, 30 truths
  // each): the default (16 candidate draws, 128 scoring draws) 0.2522 / 0.2672 here, 0.2350,
  // 0.2587, 0.1512, 0.1933 on tune-5..8 and 0.2618, 0.2746, 0.2165 on other-a..c. With 64
  // candidate draws and 512 scoring draws: 0.1986 / 0.2870 here, 0.1874, 0.2263, 0.1400,
  // 0.2323 and 0.1782, 0.1545, 0.2388, at 1.8 times the time. With 64 and 512 but the pairs
  // ranked first on 128 of the 512 and the 96 best scored on all: 0.2573 / 0.2717 here,
  // 0.1802, 0.1904, 0.1850, 0.1730 and 0.1960, 0.2319, 0.2128 (within 0.2 on five draws of
  // eight, the default on two), at 1.5 times the time; but on tune-1 the probit person's
  // p95 went 0.0712 -> 0.1079 (coverage 97% -> 90%), the side bias's 0.1307 -> 0.1560 and a
  // careful person's questions 35.0 -> 39.0 on average (lapses 0.1345 -> 0.1183, the tie
  // band 0.1085 -> 0.1080). Scoring draws alone (512) or candidate draws alone (64) left the
  // tired person's p95 above 0.2 on three and four of this draw, tune-5, tune-6 and other-a
  // (0.2643, 0.2074, 0.1974, 0.3363 and 0.2656, 0.2026, 0.2536, 0.2174). Not adopted: a
  // gain on this cell's typical draw, none on this draw, losses elsewhere, and LPM's cells
  // half as dear again in a CI near its 40 minutes.
  // Nor is it the last reading of the answers (scratch changes, not kept): the run's answers
  // read again after its last question by a fresh belief, its estimate and region reported
  // instead, with 4000 particles under learned-lean took the tired person's p95 / max from
  // 0.2350 / 0.2621 to 0.2445 / 0.2931 on tune-5 and was 0.2577 / 0.3254 on tune-6 (10% flips
  // on tune-1: 0.1100 / 0.1582 -> 0.1063 / 0.1458); read by learned-tiring (1000 particles)
  // 0.2423 / 0.3464 and 0.2718 / 0.3930. The 45 answers asked hold this cell, not their reading.
  "linear fatigue: error p95 0.2522 > 0.2",
  "linear flips-20: error p95 0.4818 > 0.2",
  // lambda (a fairness study of arrests by colour, tolerance 0.05, budget 25, the study's
  // learned-blunt-lean, on the counts shown, with the study's Phase III, which flags the
  // coin): a side bias leaves a wide tail and one run far off its truth unflagged. Under
  // learned-lean this draw also had the side bias's coverage at 83% and the tired person's
  // p95 at 0.1183; with the blunter leaning people (tuned on tune-1..3, BLUNT_LEAN_LAPSES)
  // the side bias is covered in 87% and the tired person's p95 is 0.0990, within the target
  // by a hair (on tune-1, 0.1267). The silent run is trial 9 (lambda 0.3223): 24 questions,
  // stopped on the tolerance with a radius of 0.0145 at an error of 0.1601, no lean seen and
  // its Phase III answers agreeing with its result (III p 0.000). How a side bias does it,
  // seen on the tuning truths (`--truth-seed tune-3 --misses`, trial 11, under learned-lean):
  // the person chose the left system on all 7 near pairs of the first 12 questions, the worse
  // one 6 times; the engine's estimate fits those answers without a slip, and its prior holds
  // a careful reader far likelier than either leaning kind. Lambda's questions never repeat a
  // pair, so no retest catches it; a 95% half-width check caught it but flagged 20% of
  // careful runs. More questions do not narrow the tail: on the tuning truths (`--families
  // fair-lambda --people side-bias --trials 30 --budget fair-lambda=B`) the side bias's p95
  // / max is 0.1358 / 0.1517 at 25 questions and 0.1342 / 0.1585 at 100 on tune-1, 0.1674 /
  // 0.1959 and 0.1355 / 0.1533 on tune-2, whose coverage falls from 90% to 73%; at 100 the
  // runs end after 33.1 and 39.3 questions on average, every run above twice the tolerance
  // but one stopped with no informative question left, flagged. Within a tenth of the range
  // this person picks the left system 8 times in 10 wherever the better one is shown, so
  // those answers are a coin's whatever lambda is. Nor does reading the answers again with
  // `learned` (`AnswerModel.check`, as the whole fair metric's model does) help: on tune-1..6
  // (`--people careful,side-bias`) the side bias's p95 stays as it was (0.1278-0.1919; no
  // silent run there either way), while a careful person takes 22.5-23.4 questions instead of
  // 12.0-12.5 and 63-80% of their runs end flagged.
  // Not a limit of the questions: a searcher told this person, asking the study's kind of
  // questions, meets the target, and one that learns "near answers at random" at a tenth of
  // its prior nearly does, given many points on the level set per question
  // (test/sweeps/ideal-searcher.sweep.ts, "lambda's side bias"). Such kinds tried in the
  // engine on tune-1 / tune-2 / tune-3 (a `LapsePrior.band`, answers by side within 0.1 of
  // the range, grid only, scored in the selection; not kept): two kinds picking the left
  // (right) system 8 times in 10 within it, 5% prior each, four more pools of 32 posterior
  // directions per question and the region read again by learned-blunt-lean took the side
  // bias's p95 from 0.1358 / 0.1674 / 0.1409 to 0.0912 / 0.0557 / 0.0957 (coverage 97% / 90% /
  // 97%), but 20% flips from 0.0696 / 0.0382 / 0.0684 to 0.1291 / 0.0573 / 0.1093 and the
  // tired person's from 0.1267 / 0.0924 / 0.0775 to 0.0794 / 0.0888 / 0.1056, with a random
  // run silent on tune-3; at 2.5% each (tune-1 / tune-3) 0.0971 / 0.0935, 20% flips 0.0640 /
  // 0.1067 (a silent run), tired 0.1088 / 0.1107. One kind answering at random within the
  // band (10%) with two more pools: 0.0750 / 0.1165 / 0.1174, coverage 93% / 83% / 83%; the
  // pools alone: 0.1374 / 0.1360 / 0.1644, coverage 83% / 73% / 77%, silent runs.
  // The coin kind at more prior weight, with three more pools per question (the searcher's
  // pool) and scored in the selection as a coin within the band (not kept either): the side
  // bias's p95 at 10% / 20% / 30% / 50% was 0.1194 / 0.1011 / 0.0665 / 0.0497 on tune-1 and
  // at 50% 0.0637 / 0.0717 on tune-2 / tune-3 (coverage 90% / 83% / 90%), within the target
  // on all three; but 20% flips widened at every weight from 30% (0.1564 / 0.1130 on tune-1 /
  // tune-2 at 30%, 0.1535 / 0.1277 at 50% with the coin kind's lapse 0.2, 0.1680 / 0.1033
  // with 0.3), and at 30% the probit person's reached 0.1146 on tune-1 (0.0546 before). The
  // pools are what widens 20% flips: with a coin kind of no weight they took 20% flips to
  // 0.1698 on tune-1 (and left the side bias at 0.1344 / 0.1401), while the coin kind without
  // them (40%) left 20% flips at 0.0931 / 0.0628 and the side bias at 0.1323 / 0.1722. One or
  // two pools (50%): the side bias 0.1588 / 0.0576 and 0.0775 / 0.0630, 20% flips 0.1990 /
  // 0.1692 and 0.1775 / 0.0643; pools only while the coin kind holds more than half the
  // posterior (40%): the side bias 0.1110 / 0.1442, 20% flips 0.1279 / 0.0689. So the far
  // pairs on the level set that a side bias needs are the pairs on which a flipper's flips
  // mislead: this cell and 20% flips pull the pool opposite ways. Adding the sharp flipper of
  // `learned-flipping` (the coin kind 40%, the flipper 30%, learned-blunt-lean's kinds 30%;
  // not kept) put every lambda cell but the coin's within the target on tune-1 / tune-2 (the
  // side bias 0.0964 / 0.0930, 20% flips 0.0855 / 0.0626, probit 0.0584 / 0.0468, the tired
  // person 0.0629 / 0.0687), and a careful person took 14.9 / 15.1 questions (12.2 / 12.3
  // before); but on tune-3 the side bias stayed at 0.1356 (coverage 73%), and probit and the
  // tired person went to 0.1149 and 0.1127 (0.0675 and 0.0775 before); with the coin kind at
  // 50%, the tired person to 0.1581 (max 0.3216) there. A probe of the searcher believing such
  // kinds (probit, a coin within the band and a 20% flipper; 60 runs on tune-a) read both the
  // side bias (p95 0.0754) and 20% flips (p95 0.0842, 3.3% of runs beyond) with its pools: the
  // kinds suffice for a searcher with an exact posterior and the best pair of each pool.
  // DLPM's `learned-tiring` (`--answer-model learned-tiring`, tune-1 / tune-2 / tune-3; not
  // adopted) narrowed the tired person's p95 (0.1267 / 0.0924 / 0.0775 -> 0.0895 / 0.0837 /
  // 0.0605) but not the side bias's (0.1358 / 0.1674 / 0.1409 -> 0.1817 / 0.1528 / 0.1551),
  // whose region held the truth in 73% / 77% / 83% of runs (100% / 90% / 93%), with a silent
  // run on tune-3. The tired person's cell passes here by a hair (0.0990): on another draw
  // (`--truth-seed other-1206`) it was 0.1111, on tune-1 0.1267.
  // Repeats shown with the sides swapped (the person's first answer on the left shown on the
  // right; tune-1, not adopted) do not single the side bias out either: its repeats changed
  // in 26 of 30 runs (21 with the sides drawn at random), probit's in 21 and lapses' in 18,
  // a careful person's in none; trial 9 here answered 1 of 15 Phase III pairs against its
  // result and both repeats the same.
  // Pairs that test the result's edge (not adopted): after Phase II, four pairs of candidates
  // that the result and a metric 1.5 tolerances from it (one on each side, twice) disagree
  // on most clearly, flagged at 2 or more answers against the result. It took the result's
  // side in every careful run but two (1 of 4 against) on tune-1..3 and here, but told the
  // side bias's runs off their truth from the rest weakly: 2 or more against in 4 of 5 of
  // them on tune-1, 2 of 7 on tune-2, 2 of 3 on tune-3 (all flagged already), while it newly
  // flagged 1-2 runs within the target per tuning draw (probit, fatigue, 20% flips) and 3 here
  // (probit, side bias). Here trial 9 answered 3 of 4 against. On DLPM (tune-1, directions drawn at random around the
  // result) it newly flagged 8 of 30 probit runs within the target and two runs of 20% flips
  // at errors 0.243 and 0.193 answered none of 4 against.
  // Nor does a count of the sides chosen, whatever the engine reads (not adopted): the left
  // system chosen more often than a coin would at 0.01 (two-sided, Phase II and III) in 8 to
  // 18 of 30 side-biased runs on tune-1..3 and here (careful people: none), but trial 9 chose
  // the left in 25 of 41 answers (p 0.21). Nor do the pairs near under the result alone (within
  // a tenth of its range, Phase II and III; a scratch probe): trial 9 chose the left on 19 of
  // 28 (p 0.087, two-sided), while one of 30 careful runs here came to p 0.0023.
  // Nor does placing each pair by the engine's estimate instead of at random (tune-1 /
  // tune-2, a scratch change, not kept): the system the estimate prefers shown on the left
  // and on the right equally often, so that a lean meets the better system on either side
  // alike. The side bias's p95 / max was 0.1750 / 0.2080 and 0.1285 / 0.1613 (at random
  // 0.1358 / 0.1517 and 0.1674 / 0.1959), its runs beyond 0.1 11 of 60 against 12, the tired
  // person's p95 0.1247 / 0.1304 (0.1267 / 0.0924): in the runs that go wrong the estimate is
  // what is off, so balancing by it balances nothing about the truth.
  "fair-lambda side-bias: 1 silent misses",
  "fair-lambda side-bias: error p95 0.1549 > 0.1",
  // The whole fair metric (tolerance 0.1, budget 45, learned-flips-checked): 45 questions pin a and
  // lambda but not the gap weights B for a noisy person; those runs are flagged (unidentified), and
  // the regions hold the truth. (A careful person's runs are not: their Phase III bears out the
  // careful reading, `trustedReading`; read both ways, every run of every person was flagged.)
  // Under learned-sharp-checked, the model before (`LEARNED_FLIPS_CHECKED_MODEL` says how the new
  // one was chosen on tune-1 / tune-2 alone), this draw's p95 / max were: careful 0.0179 / 0.0202
  // (now 0.0293 / 0.0491), probit 0.4522 / 0.6130 (0.5050 / 0.5443), lapses 0.3574 / 0.4302 (0.4533
  // / 0.5124), tie band 0.3951 / 0.4594 (0.3751 / 0.5220), tired 0.7023 / 0.9382 (0.7066 / 0.7517),
  // side bias 0.8557 / 1.2453 (0.8222 / 0.9075), 5% flips 0.0749 / 0.2181 (0.0768 / 0.1003), 10%
  // flips 0.3120 / 0.3956, a gap (0.1338 / 0.1536, within), 20% flips 0.9570 / 1.5596 (0.5646 /
  // 0.7223). The sharp flippers read a flipping person's answers for what they are, and each
  // question is the pair whose answer leaves the least spread of a, B and lambda (told the flips,
  // `flips:0.1`, with that choice: 10% flips' p95 0.1415 / 0.0794 on tune-1 / tune-2, against
  // 0.2516 / 0.1908 without it). But 10% flips are within here by this draw's luck: on the three
  // held-out draws (`--people flips-10 --truth-seed held-out-N`) their p95 / max is 0.2640 /
  // 0.3559, 0.2465 / 0.4883 and 0.2037 / 0.2666, above the target on each (README).
  // Notes below from before it are learned-sharp-checked's. At the
  // budget of 30 before, this draw had
  // 5% flips at 0.2075 too, and the others at probit 0.4378, lapses 0.7559, tie band 0.4326,
  // tired 0.7663, side bias 0.9787, 10% flips 0.4219, 20% flips 1.0820 (the budget went to 45
  // on the tuning draws alone: `FAIR_FULL_DEFAULTS`). Not for want of questions alone: on tune-1 at 60 (`--budget
  // fair-quadratic=60`), under learned-sharp only the careful person (p95 0.0229) and 5%
  // flips (0.0507) come within 0.2, the others stay at 0.2687 (10% flips) to 0.9845 (side
  // bias), as under learned-lean at 60 (`FAIR_FULL_DEFAULTS`). A gap weight moves the metric
  // by lambda times a squared gap between groups, small beside the costs' part, so it is
  // read from near pairs, the ones a noisy person gets wrong. At 30 the careful person needs
  // a careful reader in the model (under learned, the model before, their p95 was 0.3171
  // here): learned-sharp alone left runs far off unflagged (on held-out-1 a side-biased run
  // at error 0.5064 with radius 0.1009, and a tired one, even with a and B reported open as a
  // whole), learned-lean too (on tune-1 / tune-2). Read again by learned
  // (learned-sharp-checked, `fairAnswerModel`: learned-sharp's questions and estimate, the
  // region and the flags answering for learned's reading too) no run is left unflagged on
  // tune-1, tune-2, held-out-1 or here, and the careful person is within the target.
  // Told a flipping person's flips (`--answer-model flips:P`, a diagnosis) on tune-1, 5%
  // flips come within (p95 0.1868 against learned's 0.5146), 10% and 20% do not (0.3303 and
  // 1.0709 against 0.5659 and 0.9989): at 30 questions, out of this engine's reach even so.
  // At the study's 45 questions, told the flips (`--answer-model flips:0.1`), 10% flips' p95 / max
  // is 0.2516 / 0.3819 on tune-1 and 0.1908 / 0.2503 on tune-2 (the study's model: 0.2341 and
  // 0.2385): knowing the person does not close this cell on every draw. Nor does the searcher's
  // estimate, the posterior mean of a, B and lambda instead of the mean direction (tune-1, a
  // scratch change: 10% flips' p95 0.2341 -> 0.2350, p50 0.1058 -> 0.0961; careful 0.0212 ->
  // 0.0181). A searcher told the flips, with cuts anywhere and the engine's prior
  // (test/sweeps/ideal-searcher.sweep.ts, all 45 questions) ends above 0.2 in about 1% of its runs
  // at 10% flips (its cells of 30 runs within the target in almost every draw; at 30 questions, the
  // budget before, in about a tenth of its runs and a quarter of the draws) and in a fifth to a
  // third at 20% (almost no draw within): 20% flips are beyond 45 questions for any searcher, 10%
  // flips are not. With exact answers it is within 0.01, with 5% flips within 0.03 at p95: the
  // careful, 5% and 10% flips cells are this engine's (its questions, which must be systems the
  // data can make and are shown as counts: a gap weight's feature is a squared gap between groups'
  // rates, small beside the costs'; and its model), not the budget's. So was 10% flips' miss: a
  // searcher told the flips and asking only pairs of the data's query ball (a scratch probe:
  // `particleSearch` choosing among the family's own candidates' pairs, exact rates) had 10%
  // flips' p95 0.0906 / 0.1742 on tune-a / tune-b (40 runs each, none beyond 0.2); the
  // engine reached it once it read flippers and chose by the spread (learned-flips-checked).
  // A careful person still answers all 45 questions: stopping as soon as the first reading
  // alone is within the tolerance and holds a careful reader at 0.9 (tune-1, 20 truths; not
  // adopted) took them 39.9 on average (max 45, p95 0.0294), five questions saved, with
  // Phase III to vouch for the reading as before.
  // Nor do 90 questions (`--budget fair-quadratic=90`, tune-1): probit's p95 / max 0.2826 /
  // 0.4315 and lapses' 0.2434 / 0.2840 (0.5466 and 0.3802 at 45). Leaning and tiring kinds
  // among learned-flips-checked's people (`learned-tiring`'s tired kind at 10% and
  // `learned-lean`'s two leaning kinds at 2.5% each; a scratch change, not kept) took the side
  // bias's p95 from 0.7277 / 0.9138 to 0.6296 / 0.7355 and the tired person's from 1.0400 /
  // 0.6840 to 0.8827 / 0.7875 on tune-1 / tune-2: far from 0.2 either way.
  // The probit person's cell is near what the data can tell at all: the best 45 questions for B,
  // chosen knowing the truth and the person (`fairDesignBound`,
  // test/sweeps/ideal-searcher.sweep.ts: A-optimal over pairs of the query ball and the family's
  // candidates, shown as counts), leave B's error p95 0.1580 on this draw, 1.7% of runs beyond
  // 0.2, a cell of 30 within the target in 97% of draws (tune-1 / tune-2 / held-out-1: p95
  // 0.1635 / 0.1649 / 0.1672, cells within in 92% / 93% / 94%), and 0.1089 at 90. An engine that
  // knows neither has little room. Told a reader about as sharp as this person (a logistic of
  // temperature 0.03 without lapses, questions by the spread; a diagnosis), the engine's p95 /
  // max is 0.2022 / 0.2686 on tune-1 and 0.2697 / 0.3730 on tune-2 (learned-flips-checked 0.5466
  // / 0.4542); blunter (0.0455, lapse 0.02) 0.4346 on tune-1, sharper (0.015) 0.1559 with the
  // region holding the truth in 67%. Told that reader and given 90 questions (`--budget
  // fair-quadratic=90`), 0.1983 / 0.2606 on tune-1 and 0.2217 / 0.3296 on tune-2: twice the
  // questions hardly narrow the tail, so beyond the reading it is this engine's questions (pairs
  // of the query ball, shown as counts) that hold the cell. So the reading of the person is most
  // of this cell (0.5466 -> 0.2022 on tune-1), and the questions the rest. Tried on tune-1 /
  // tune-2 (scratch changes, not kept): a fine reader among the model's people (lapse 0.02, 1.5
  // times as sharp as the temperature, 30% prior weight): probit 0.3260 / 0.2986, lapses 0.3908
  // / 0.3598, tie band 0.4931 / 0.4656 (0.3229 / 0.3656 before), tired 0.6314 / 0.8228, side
  // bias 0.5581 / 1.1423, 10% flips 0.1501 / 0.1288, 20% flips 0.5390 / 0.2837: none within, the
  // tie band wider. Questions scored at the person's posterior mean temperature rather than
  // their mean sharpness (the sharp flippers weigh less in the choice): probit 0.3671 / 0.3287,
  // tie band 0.2269 / 0.3007, lapses 0.4061 / 0.3308, but 10% flips 0.2319 / 0.2073 (0.1557 /
  // 0.1190 before), a gap for gaps; at the geometric mean (tune-1) probit 0.4535, tie band
  // 0.2873, 10% flips 0.1896 with a run at 0.6773. A sharp flipper and a probit person want
  // opposite questions from the same answers so far, as a tired person and a flipper want
  // opposite priors on LPM. Nor does asking first what tells the two apart (tune-1, a scratch
  // change, not kept): the first 8 of the 45 questions random pairs of the candidates (far
  // pairs, which a flipper gets wrong now and then and a probit person right) took probit's p95
  // / max to 0.3414 / 0.5775 (0.5466 before) but lapses' to 0.5256 / 0.6915 (0.3802), the tie
  // band's to 0.3691 / 0.4570 (0.3229) and 10% flips' to 0.2348 / 0.3805 (0.1557): the questions
  // taken from the search cost more than the better reading gives back. Nor 15 random pairs
  // after the 45 questions, read with them (60 in all, as if Phase III's pairs were read into
  // the estimate; tune-1, not kept): probit 0.5635 / 0.6641, lapses 0.3801 / 0.4294, the tie
  // band 0.2718 / 0.4299, 10% flips 0.1345 / 0.2784: the far pairs come too late to change the
  // questions, and the probit person's error stays where it was. Nor the fine reader with the
  // questions scored as for a sharp reader (temperature 0.03, lapse 0.001; tune-1, not kept):
  // probit 0.3391 / 0.4105, lapses 0.4122 / 0.4462, the tie band 0.3115 / 0.4405, 10% flips
  // 0.2025 / 0.3269.
  // The same yardstick for the other people whose answers follow the counts through probit
  // noise (`fairDesignBound` with `person`, the ideal-searcher sweep's "other noisy people",
  // this draw, p95 / runs beyond 0.2 / cell within at 45; p95 at 90): lapses 0.1772 / 2.9% /
  // 89%, 0.1224; the tie band (answers within its narrowest band counted as saying nothing)
  // 0.2011 / 5.1% / 67%, 0.1384: near the target at 45, as the probit person. The side bias
  // (near answers saying nothing) 0.3735 / 25.6% / 0%, and 0.2581 at 90 (cells within 14%);
  // the tired person 0.2839 / 14.7% / 5% (blocks of 9 questions at their first question's
  // noise): by this yardstick those two cells are beyond any engine at the study's 45
  // questions, and the side bias at 90. The 20% flipper is beyond them too (idealFairSearch,
  // told the flips: 30.0% of runs beyond, cells within 0%).
  "fair-quadratic probit: error p95 0.5050 > 0.2",
  "fair-quadratic lapse: error p95 0.4533 > 0.2",
  "fair-quadratic tie-band: error p95 0.3751 > 0.2",
  "fair-quadratic fatigue: error p95 0.7066 > 0.2",
  "fair-quadratic side-bias: error p95 0.8222 > 0.2",
  "fair-quadratic flips-20: error p95 0.5646 > 0.2",
];

/**
 * One adaptive cell of the panel under `model` on the model comparisons' own draw of truths
 * (`models-1`, 20 per cell), used by neither the tuning nor the table; its people have seeds
 * of their own too (`personSeed`).
 */
function modelRun(model: StudyAnswerModel, family: PeopleFamily, person: PersonType) {
  // A cell is a pure function of its model, family and person (same truths and seeds): the
  // comparisons share some, computed once.
  const key = `${model} ${family} ${person}`;
  let row = modelRuns.get(key);
  if (!row) {
    row = computeModelRun(model, family, person);
    modelRuns.set(key, row);
  }
  return row;
}

const modelRuns = new Map<string, ReturnType<typeof computeModelRun>>();

function computeModelRun(model: StudyAnswerModel, family: PeopleFamily, person: PersonType) {
  const args = { trials: 20, truthSeed: "models-1", families: [family], people: [person], model };
  return recorded(
    "reproducePeople adaptive row",
    args,
    () =>
      reproducePeople({
        population: prepareStudyData(cancerDiagnosisConfig()).pool,
        multiclass: peopleMulticlassPool(),
        fair: peopleFairData(),
        ...args,
      }).rows.filter((x) => x.strategy === "adaptive")[0]!,
  );
}

/** The same cell under two answer models, each row by its model's name. */
function modelPair<A extends StudyAnswerModel, B extends StudyAnswerModel>(
  a: A,
  b: B,
  family: PeopleFamily,
  person: PersonType,
): Record<A | B, ReturnType<typeof modelRun>> {
  return { [a]: modelRun(a, family, person), [b]: modelRun(b, family, person) } as Record<
    A | B,
    ReturnType<typeof modelRun>
  >;
}

/** A model comparison's cell in one line, as the comparisons log it. */
function cellFigures(r: ReturnType<typeof modelRun>): string {
  return `${r.questions.mean.toFixed(1)} q, p95 ${r.error.p95.toFixed(4)}, max ${r.error.max.toFixed(4)}, coverage ${r.coverage}, flagged ${r.flagged}, silent ${r.silentMisses}`;
}

/** The gaps of `r`'s adaptive cells against the issue's targets, in KNOWN_GAPS's words. */
function gapsOf(r: PeopleReproduction): string[] {
  const pct = (x: number) => `${Math.round(100 * x)}%`;
  const gaps: string[] = [];
  for (const row of r.rows.filter((x) => x.strategy === "adaptive")) {
    const cell = `${row.family} ${row.person}`;
    const tol = PEOPLE_SETTINGS[row.family].tolerance;
    expect(row.trials, cell).toBe(30);
    if (row.dominated > 0) gaps.push(`${cell}: ${row.dominated} dominated pairs shown`);
    // At most 30 questions per binary, DLPM and lambda run (issue 26); LPM and the whole fair
    // metric within their studies' budgets (45 each).
    const cap = ["linear", "fair-quadratic"].includes(row.family)
      ? PEOPLE_SETTINGS[row.family].budget
      : 30;
    expect(row.questions.max, `${cell}: questions`).toBeLessThanOrEqual(cap);
    if (row.silentMisses > 0) gaps.push(`${cell}: ${row.silentMisses} silent misses`);
    if (row.person === "random") {
      if (row.flagged! < 0.95) gaps.push(`${cell}: flagged ${pct(row.flagged!)} < 95%`);
      // The issue asks coverage of every person type, the random responder's too (its error
      // target alone is replaced by the flag): a coin's answers say nothing of its truth, yet
      // the engine's region after Phase II is as narrow as a careful person's (an adaptive
      // search's answers always fit some metric; only Phase III tells a coin), so once Phase
      // III takes the person for a coin the study states the whole space (`unmeasuredReading`).
      if (row.coverage! < 0.85) gaps.push(`${cell}: coverage ${pct(row.coverage!)} < 85%`);
      continue;
    }
    // The price of not knowing the person (issue 26): with the study's answer model, a
    // careful person (noise-free on the counts shown) needs at most 12 questions on average
    // in the built-in binary study and 22 in a DLPM k = 3 study.
    const price = { "binary-threshold": 12, "diagonal-linear": 22 } as Record<string, number>;
    const most = row.person === "careful" ? price[row.family] : undefined;
    if (most !== undefined && row.questions.mean > most) {
      gaps.push(`${cell}: mean questions ${row.questions.mean.toFixed(1)} > ${most}`);
    }
    if (row.coverage! < 0.85) gaps.push(`${cell}: coverage ${pct(row.coverage!)} < 85%`);
    if (row.error.p95 > 2 * tol) {
      gaps.push(`${cell}: error p95 ${row.error.p95.toFixed(4)} > ${2 * tol}`);
    }
  }
  return gaps;
}

describe("issue 26: the panel of people (reproduce people)", () => {
  const population = prepareStudyData(cancerDiagnosisConfig()).pool;
  const parts = new Map<string, PeopleReproduction>();
  // A cell (a family and a person) at a time, each in its own test: a cell's rows depend on
  // its own truths and seeds only (mergePeopleReproductions, tested). The whole table in one
  // test ran past the sweeps' 20-minute limit per test on a day this machine was slow (1210
  // s), and a family at a time came within 1.5 times of it (the whole fair metric, 835 s).
  for (const family of PEOPLE_FAMILIES) {
    for (const person of PERSON_TYPES) {
      it(`adaptive cells: ${family} ${person} against the issue's targets, its gaps listed`, () => {
        const args = { trials: 30, families: [family], people: [person] };
        const part = recorded("reproducePeople", args, () =>
          reproducePeople({
            population,
            multiclass: peopleMulticlassPool(),
            fair: peopleFairData(),
            ...args,
          }),
        );
        parts.set(`${family} ${person}`, part);
        console.log(formatPeopleReproduction(part));
        expect(gapsOf(part)).toEqual(
          KNOWN_GAPS.filter((g) => g.startsWith(`${family} ${person}:`)),
        );
        if (family === "fair-quadratic" && person === "careful") {
          // A careful person's run states the first reading alone once Phase III bears it out
          // (`trustedReading`): read both ways every such run was flagged, a flag that told
          // nothing. None flagged on tune-1 (20 truths) and held-out-1 (30); asserted with
          // margin.
          expect(part.rows.find((r) => r.strategy === "adaptive")!.flagged!).toBeLessThanOrEqual(
            0.1,
          );
        }
      });
    }
  }

  it("adaptive cells: the whole table against the issue's targets, the gaps listed", () => {
    // Every cell's test ran (a failed one still leaves its table; a skipped one none).
    expect([...parts.keys()]).toEqual(
      PEOPLE_FAMILIES.flatMap((f) => PERSON_TYPES.map((person) => `${f} ${person}`)),
    );
    const r = mergePeopleReproductions([...parts.values()]);
    const text = formatPeopleReproduction(r);
    console.log(text);
    recordFigures("reproduce-people", import.meta.url, "panel of people", text);
    // The runs behind the table's tails (`--misses`), checked against its rows; the silent
    // ones in the log (not the figure), to rerun.
    const silent = r.misses.filter((m) => m.flags.length === 0);
    console.log(formatPeopleMisses(silent, "reproduce-people", "Silent misses (adaptive)"));
    const adaptive = r.rows.filter((x) => x.strategy === "adaptive");
    expect(silent.length).toBe(adaptive.reduce((n, row) => n + row.silentMisses, 0));
    for (const row of adaptive) {
      const tol = PEOPLE_SETTINGS[row.family].tolerance;
      const own = r.misses.filter((m) => m.family === row.family && m.person === row.person);
      // The worst run of a cell is listed first when it is above twice the tolerance; a cell
      // whose worst run is within it lists none.
      if (row.error.max > 2 * tol) expect(own[0]?.error).toBe(row.error.max);
      else expect(own, `${row.family} ${row.person}: misses`).toEqual([]);
    }
    expect(gapsOf(r)).toEqual(KNOWN_GAPS);
    // The dashboard's "leans left / right" mark (informative, not a flag). On the tuning
    // truths tune-1 / tune-2 it marked no careful run of binary, DLPM, LPM or lambda, and 6-15
    // of 30 side-biased runs of DLPM, LPM and lambda (binary 1-3). Asserted with margin: a
    // careful person in at most 10% of runs of every family, a side-biased one in at least
    // 10% of DLPM, LPM and lambda runs, any other person in at most 10% (the README says so).
    for (const row of adaptive) {
      const cell = `${row.family} ${row.person}: leaning`;
      if (row.person !== "side-bias") expect(row.leaning!, cell).toBeLessThanOrEqual(0.1);
      if (
        row.person === "side-bias" &&
        ["diagonal-linear", "linear", "fair-lambda"].includes(row.family)
      ) {
        expect(row.leaning!, cell).toBeGreaterThanOrEqual(0.1);
      }
    }
    // The consistency figure measures the person (issue 26 item 4): the share of Phase III
    // answers the study states against their own result (`slips`) beside the share of the same
    // pairs they answered against their own truth (`true`). It counts against the result, so
    // a result far off moves it (LPM's 20% flips on tune-1: stated 23.8%, true 18.0%); where
    // the result is within twice the tolerance, the mean gap is within one answer of the 15
    // random pairs in every cell but the coin's (whose result says nothing). On tune-1 the
    // largest such mean gap was 0.049 (LPM lapse), binary at most 0.007 (counted against the
    // range's best metric); not tuned.
    const slips: string[] = [];
    for (const row of adaptive) {
      if (row.person === "random") continue;
      const s = row.slips!;
      expect(s, `${row.family} ${row.person}: slips`).toBeDefined();
      slips.push(`${row.family} ${row.person} ${s.gapWithin?.toFixed(3)} (${s.within})`);
      if (s.gapWithin !== null) {
        expect(s.gapWithin, `${row.family} ${row.person}: slips gap`).toBeLessThanOrEqual(1 / 15);
      }
    }
    console.log(
      `mean gap of the consistency figure, runs within twice the tolerance: ${slips.join("; ")}`,
    );
  });

  // Which answer model each kind of study runs (README, "Answer models"): decided on the truths
  // drawn with `--truth-seed held-out-1`, asserted here on a third draw that neither the
  // decision nor the table above uses.
  it("learned against human: more questions for a careful binary person, a coin flagged on DLPM under both, 20% flips covered on LPM, a side bias covered on lambda", () => {
    const binary = modelPair("human", "learned", "binary-threshold", "careful");
    const coin = modelPair("human", "learned", "diagonal-linear", "random");
    const flips = modelPair("human", "learned", "linear", "flips-20");
    const lean = modelPair("human", "learned", "fair-lambda", "side-bias");
    console.log(
      `binary-threshold careful, mean questions: human ${binary.human.questions.mean}, learned ${binary.learned.questions.mean}; ` +
        `DLPM random, flagged / silent: human ${coin.human.flagged} / ${coin.human.silentMisses}, learned ${coin.learned.flagged} / ${coin.learned.silentMisses}; ` +
        `LPM flips-20, coverage (engine's region): human ${flips.human.coverage} (${flips.human.engineCoverage}), learned ${flips.learned.coverage} (${flips.learned.engineCoverage}); ` +
        `lambda side-bias, coverage (engine's region): human ${lean.human.coverage} (${lean.human.engineCoverage}), learned ${lean.learned.coverage} (${lean.learned.engineCoverage})`,
    );
    expect(binary.learned.questions.mean).toBeGreaterThan(binary.human.questions.mean + 1);
    expect(binary.learned.coverage!).toBeLessThanOrEqual(binary.human.coverage! + 0.05);
    // With Phase III in every kind of study, the coin is flagged on DLPM under either model
    // (the learned model alone flagged it far more often than the human one, before Phase
    // III: 1 and 0.5 on this draw); the models' difference is the other three.
    for (const m of [coin.learned, coin.human]) {
      expect(m.flagged!).toBeGreaterThanOrEqual(0.95);
      expect(m.silentMisses).toBe(0);
    }
    // The models' own regions: a study opens a coin's to the whole space under either model
    // (`unmeasuredReading`), which lifts both cells' coverage as stated (here LPM flips-20
    // human 0.6, learned 0.9; lambda side-bias human 0.65, learned 0.8).
    expect(flips.learned.engineCoverage!).toBeGreaterThanOrEqual(flips.human.engineCoverage! + 0.2);
    expect(lean.learned.engineCoverage!).toBeGreaterThanOrEqual(lean.human.engineCoverage! + 0.2);
    expect(flips.learned.coverage!).toBeGreaterThanOrEqual(flips.human.coverage!);
    expect(lean.learned.coverage!).toBeGreaterThanOrEqual(lean.human.coverage!);
  });

  // Studies with a Phase III run `learned-sharp` (README, "Answer models"): chosen on the
  // truths drawn with `--truth-seed tune-1`, asserted here on the models' own draw.
  it("learned-sharp against the others: a careful person pinned down (in fewer questions but on the threshold), a coin still flagged", () => {
    const sharpened = (than: "human" | "learned", family: PeopleFamily) => {
      const pair = modelPair(than, "learned-sharp", family, "careful");
      return { ...pair, sharp: pair["learned-sharp"] };
    };
    const threshold = sharpened("human", "binary-threshold");
    const linear = sharpened("human", "binary-linear");
    const dlpm = sharpened("learned", "diagonal-linear");
    const coin = modelRun("learned-sharp", "diagonal-linear", "random");
    const figures = (r: typeof coin) =>
      `${r.questions.mean.toFixed(1)} q, p95 ${r.error.p95.toFixed(4)}, max ${r.error.max.toFixed(4)}, coverage ${r.coverage}, flagged ${r.flagged}`;
    console.log(
      `careful, binary-threshold: human ${figures(threshold.human)}; learned-sharp ${figures(threshold.sharp)}\n` +
        `careful, binary-linear: human ${figures(linear.human)}; learned-sharp ${figures(linear.sharp)}\n` +
        `careful, DLPM: learned ${figures(dlpm.learned)}; learned-sharp ${figures(dlpm.sharp)}\n` +
        `random, DLPM, learned-sharp: flagged ${coin.flagged}, silent ${coin.silentMisses}`,
    );
    // The careful person's tail of errors narrows and fewer runs end "not pinned down", for
    // fewer questions (binary-linear, DLPM), and their region still holds their truth. On
    // the tuning truths (tune-1), before binary studies offered every point as shown:
    // threshold p95 0.066 -> 0.021, flagged 80% -> 23%, questions 10.4 -> 11.6;
    // binary-linear p95 0.149 -> 0.036; DLPM questions 25.0 -> 19.2.
    // The threshold has changed since: with every threshold classifier as shown among the
    // questions, the fixed human model no longer gives up on a careful person's near pairs
    // (this draw: human 9.3 questions, p95 0.0117, none flagged; learned-sharp 11.2, 0.0170,
    // none flagged). What is asserted there is that the sharp model pins a careful person
    // as well, for at most three questions more; its case on the threshold is the other
    // people (20% flips on tune-1: region held in 97% of runs under learned-sharp, 53%
    // under human, with 2 silent misses).
    expect(threshold.sharp.error.p95).toBeLessThanOrEqual(0.5 * 0.05);
    expect(threshold.sharp.flagged!).toBeLessThanOrEqual(0.1);
    expect(threshold.sharp.questions.mean).toBeLessThanOrEqual(threshold.human.questions.mean + 3);
    expect(linear.sharp.error.p95).toBeLessThan(0.5 * linear.human.error.p95);
    expect(linear.sharp.questions.mean).toBeLessThan(linear.human.questions.mean);
    expect(dlpm.sharp.questions.mean).toBeLessThanOrEqual(dlpm.learned.questions.mean - 3);
    for (const r of [threshold.sharp, linear.sharp, dlpm.sharp]) {
      expect(r.coverage!).toBeGreaterThanOrEqual(0.85);
      expect(r.silentMisses).toBe(0);
    }
    // Phase III flags the coin that the careful reader's level would explain.
    expect(coin.flagged!).toBeGreaterThanOrEqual(0.95);
    expect(coin.silentMisses).toBe(0);
  });

  // Studies with a Phase III run `learned-lean` (README, "Answer models"): chosen on the
  // truths drawn with `--truth-seed tune-1` and `tune-2`, asserted here on the models' own draw.
  it("learned-lean against learned-sharp: a person who leans to one side has a narrower tail; a careful person and a coin as before", () => {
    const families = ["binary-threshold", "diagonal-linear", "fair-lambda"] as const;
    const lean = families.map((f) => modelPair("learned-sharp", "learned-lean", f, "side-bias"));
    const careful = modelPair("learned-sharp", "learned-lean", "binary-threshold", "careful");
    const coin = modelRun("learned-lean", "diagonal-linear", "random");
    console.log(
      families
        .map(
          (f, i) =>
            `side-bias, ${f}: learned-sharp ${cellFigures(lean[i]!["learned-sharp"])}; learned-lean ${cellFigures(lean[i]!["learned-lean"])}`,
        )
        .join("\n") +
        `\ncareful, binary-threshold: learned-sharp ${cellFigures(careful["learned-sharp"])}; learned-lean ${cellFigures(careful["learned-lean"])}` +
        `\nrandom, DLPM, learned-lean: ${cellFigures(coin)}`,
    );
    // Summed over the three families, a tail of errors no wider (each family's p95 over its
    // tolerance, summed). Coverage does not favour learned-lean on this draw since binary
    // studies offer every point as shown: the side-biased person's region held the truth in
    // 20, 17 and 17 of 20 runs on the threshold, DLPM and lambda under learned-lean, and 19,
    // 17 and 18 under learned-sharp (before, the threshold's difference made learned-lean's
    // sum the larger, as this test asserted). Each cell's coverage is asserted by the panel
    // above, against the 85%, under the model its study runs.
    const tolerance = { "binary-threshold": 0.05, "diagonal-linear": 0.05, "fair-lambda": 0.05 };
    const tail = (model: "learned-sharp" | "learned-lean") =>
      lean.reduce((s, pair, i) => s + pair[model].error.p95 / tolerance[families[i]!], 0);
    expect(tail("learned-lean")).toBeLessThanOrEqual(tail("learned-sharp"));
    for (const pair of lean) expect(pair["learned-lean"].silentMisses).toBe(0);
    // The careful person: within a question on average, and covered as before.
    expect(careful["learned-lean"].questions.mean).toBeLessThanOrEqual(
      careful["learned-sharp"].questions.mean + 1,
    );
    expect(careful["learned-lean"].coverage!).toBeGreaterThanOrEqual(0.85);
    expect(coin.flagged!).toBeGreaterThanOrEqual(0.95);
    expect(coin.silentMisses).toBe(0);
  });

  // Lambda studies with a Phase III run `learned-blunt-lean` (README, "Answer models"): its
  // leaning people's sharpness was chosen on the truths drawn with `--truth-seed tune-1`,
  // `tune-2` and `tune-3` (BLUNT_LEAN_LAPSES), asserted here on the models' own draw.
  it("learned-blunt-lean against learned-lean on lambda: a side bias covered at least as often; a careful person and a coin as before", () => {
    const lean = modelPair("learned-lean", "learned-blunt-lean", "fair-lambda", "side-bias");
    const careful = modelPair("learned-lean", "learned-blunt-lean", "fair-lambda", "careful");
    const coin = modelRun("learned-blunt-lean", "fair-lambda", "random");
    console.log(
      `side-bias, lambda: learned-lean ${cellFigures(lean["learned-lean"])}; learned-blunt-lean ${cellFigures(lean["learned-blunt-lean"])}\n` +
        `careful, lambda: learned-lean ${cellFigures(careful["learned-lean"])}; learned-blunt-lean ${cellFigures(careful["learned-blunt-lean"])}\n` +
        `random, lambda, learned-blunt-lean: ${cellFigures(coin)}`,
    );
    // The side bias's coverage, on the tuning truths 83% / 77% / 73% -> 100% / 90% / 93%; its
    // tail did not narrow there (p95 0.165 / 0.163 / 0.160 -> 0.136 / 0.167 / 0.141).
    const blunt = lean["learned-blunt-lean"];
    expect(blunt.coverage!).toBeGreaterThanOrEqual(lean["learned-lean"].coverage!);
    expect(blunt.silentMisses).toBeLessThanOrEqual(lean["learned-lean"].silentMisses);
    const sure = careful["learned-blunt-lean"];
    expect(sure.questions.mean).toBeLessThanOrEqual(careful["learned-lean"].questions.mean + 1);
    expect(sure.coverage!).toBeGreaterThanOrEqual(0.85);
    expect(sure.error.p95).toBeLessThanOrEqual(0.05);
    expect(coin.flagged!).toBeGreaterThanOrEqual(0.95);
    expect(coin.silentMisses).toBe(0);
  });

  // `learned-tiring`, an option (README, "Answer models"): tuned on the truths drawn with
  // `--truth-seed tune-1` and `tune-2`, asserted here on the models' own draw. As every
  // study's model it left more cells short of the targets on the table's draw than
  // learned-lean (see TIRING_LAPSES), so studies keep learned-lean.
  it("learned-tiring against learned-lean: a person who tires has a narrower tail on DLPM and lambda", () => {
    const families = ["diagonal-linear", "fair-lambda"] as const;
    const tired = families.map((f) => modelPair("learned-lean", "learned-tiring", f, "fatigue"));
    console.log(
      families
        .map(
          (f, i) =>
            `fatigue, ${f}: learned-lean ${cellFigures(tired[i]!["learned-lean"])}; learned-tiring ${cellFigures(tired[i]!["learned-tiring"])}`,
        )
        .join("\n"),
    );
    // Summed over the two families (each p95 over its tolerance, 0.05 both): on the tuning
    // truths 4.40 -> 3.16 (tune-1) and 3.74 -> 3.31 (tune-2).
    const tail = (model: "learned-lean" | "learned-tiring") =>
      tired.reduce((s, pair) => s + pair[model].error.p95 / 0.05, 0);
    expect(tail("learned-tiring")).toBeLessThan(tail("learned-lean"));
    for (const pair of tired) {
      expect(pair["learned-tiring"].silentMisses).toBe(0);
      expect(pair["learned-tiring"].coverage!).toBeGreaterThanOrEqual(0.85);
    }
  });

  // Binary-threshold studies with a Phase III run `learned-flipping` (README, "Answer
  // models"): chosen on the truths drawn with `--truth-seed tune-1` to `tune-10`
  // (FLIPPING_LAPSES), asserted here on the models' own draw.
  it("learned-flipping against learned-lean on the threshold: 20% flips have a narrower tail; a careful person within a question, a coin flagged", () => {
    const flips = modelPair("learned-lean", "learned-flipping", "binary-threshold", "flips-20");
    const careful = modelPair("learned-lean", "learned-flipping", "binary-threshold", "careful");
    const coin = modelRun("learned-flipping", "binary-threshold", "random");
    console.log(
      `flips-20, binary-threshold: learned-lean ${cellFigures(flips["learned-lean"])}; learned-flipping ${cellFigures(flips["learned-flipping"])}\n` +
        `careful, binary-threshold: learned-lean ${cellFigures(careful["learned-lean"])}; learned-flipping ${cellFigures(careful["learned-flipping"])}\n` +
        `random, binary-threshold, learned-flipping: ${cellFigures(coin)}`,
    );
    // On the ten tuning draws (30 truths each) 20% flips' p95 was lower under learned-flipping
    // on every one (learned-lean 0.0568 to 0.3728, learned-flipping 0.0429 to 0.0994).
    const sharp = flips["learned-flipping"];
    expect(sharp.error.p95).toBeLessThan(flips["learned-lean"].error.p95);
    expect(sharp.coverage!).toBeGreaterThanOrEqual(0.85);
    expect(sharp.silentMisses).toBeLessThanOrEqual(flips["learned-lean"].silentMisses);
    const sure = careful["learned-flipping"];
    expect(sure.questions.mean).toBeLessThanOrEqual(careful["learned-lean"].questions.mean + 1);
    expect(sure.coverage!).toBeGreaterThanOrEqual(0.85);
    expect(sure.error.p95).toBeLessThanOrEqual(0.05);
    expect(sure.silentMisses).toBe(0);
    // The coin: the panel asserts its 95% on the table's draw; a run of a coin left unflagged
    // showed on three of the ten tuning draws, so here, on 20 runs, at least 90%.
    expect(coin.flagged!).toBeGreaterThanOrEqual(0.9);
  });

  // Binary-linear studies with a Phase III run `learned-flipping-moderate` (README, "Answer
  // models"): chosen on the truths drawn with `--truth-seed tune-1` to `tune-6`
  // (MODERATE_FLIPPING_LAPSES), asserted here on the models' own draw.
  it("learned-flipping-moderate against learned-lean on binary-linear: 20% flips covered and no more silent runs; lapses and a tired person within the target; a careful person within a question, a coin flagged", () => {
    const model = "learned-flipping-moderate";
    const flips = modelPair("learned-lean", model, "binary-linear", "flips-20");
    const careful = modelPair("learned-lean", model, "binary-linear", "careful");
    const lapse = modelRun(model, "binary-linear", "lapse");
    const tired = modelRun(model, "binary-linear", "fatigue");
    const coin = modelRun(model, "binary-linear", "random");
    console.log(
      `flips-20, binary-linear: learned-lean ${cellFigures(flips["learned-lean"])}; ${model} ${cellFigures(flips[model])}\n` +
        `careful, binary-linear: learned-lean ${cellFigures(careful["learned-lean"])}; ${model} ${cellFigures(careful[model])}\n` +
        `lapse, binary-linear, ${model}: ${cellFigures(lapse)}\n` +
        `fatigue, binary-linear, ${model}: ${cellFigures(tired)}\n` +
        `random, binary-linear, ${model}: ${cellFigures(coin)}`,
    );
    // On the six tuning draws (30 truths each) 20% flips' p95 was lower on every one
    // (learned-lean 0.0533 to 0.3301, this model 0.0229 to 0.1499), its max on five, and the
    // silent misses went (two draws had one each). Not a narrower tail on every draw: on
    // these 20 truths the p95 printed 0.0786 under learned-lean and 0.1109 under this model
    // (max 0.3065 and 0.1326), on the table's draw 0.1629 and 0.2027 (max 0.6517 and
    // 0.3404), on held-out-2 0.3950 and 0.1019; so the tail is logged here, not asserted.
    expect(flips[model].coverage!).toBeGreaterThanOrEqual(0.85);
    expect(flips[model].silentMisses).toBeLessThanOrEqual(flips["learned-lean"].silentMisses);
    // What the sharp flipper of learned-flipping cost (lapses' p95 0.0538 on tune-1, the tired
    // person's up to 0.0775): here within twice the tolerance (on the tuning draws lapses'
    // p95 0.0093 to 0.0203, the tired person's 0.0089 to 0.0182).
    for (const cell of [lapse, tired]) {
      expect(cell.error.p95).toBeLessThanOrEqual(0.04);
      expect(cell.coverage!).toBeGreaterThanOrEqual(0.85);
      expect(cell.silentMisses).toBe(0);
    }
    // A careful person: at most half a question more on the tuning draws.
    const sure = careful[model];
    expect(sure.questions.mean).toBeLessThanOrEqual(careful["learned-lean"].questions.mean + 1);
    expect(sure.error.p95).toBeLessThanOrEqual(0.02);
    expect(sure.silentMisses).toBe(0);
    expect(coin.flagged!).toBeGreaterThanOrEqual(0.9);
  });
});
