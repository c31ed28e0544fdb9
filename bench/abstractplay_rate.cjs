// node bench/abstractplay_rate.cjs RECRANKS FILE...
//
// Runs Abstract Play's raters (the build of AbstractPlay/recranks in the folder RECRANKS:
// `npm ci && npm run build-ts` there) over the records of the JSON files named (each one
// record or an array of them), grouped into pools and Glicko-2 periods as the site's daily
// summary job groups them (spec/ratings.md §3), and prints one JSON document shaped as
// `arbiter ratings --compat abstractplay --json` prints its pools, for bench/ratings.py to
// compare. Only the raters come from the build; the grouping is this file's.
"use strict";
const fs = require("fs");
const path = require("path");

const [build, ...files] = process.argv.slice(2);
if (build === undefined || files.length === 0) {
    process.stderr.write("usage: node abstractplay_rate.cjs RECRANKS FILE...\n");
    process.exit(2);
}
const { ELOBasic, Glicko2, Trueskill } = require(path.resolve(build, "build", "index.js"));
const PERIOD = 60 * 24 * 60 * 60 * 1000;

function readRecords(names) {
    const found = [];
    for (const name of names) {
        const value = JSON.parse(fs.readFileSync(name, "utf8"));
        for (const record of Array.isArray(value) ? value : [value]) found.push(record);
    }
    return found;
}

function variantsOf(record) {
    const chosen = record.header.game.variants;
    return chosen !== undefined && chosen.length > 0 ? [...chosen].sort().join("|") : "";
}

// The pools: by game in the order of its first record, then by variants likewise.
function pools(records) {
    const games = new Map();
    for (const record of records) {
        const name = record.header.game.name;
        if (!games.has(name)) games.set(name, new Map());
        const byVariants = games.get(name);
        const key = variantsOf(record);
        if (!byVariants.has(key)) byVariants.set(key, []);
        byVariants.get(key).push(record);
    }
    const found = [];
    for (const [game, byVariants] of games) {
        for (const [key, members] of byVariants) {
            found.push([key === "" ? `${game} (no variants)` : `${game} (${key})`, members]);
        }
    }
    return found;
}

// Glicko-2 period by period, each from the ratings known at its start.
function glickoByPeriods(members) {
    const ends = members.map((r) => r.header["date-end"]).sort((a, b) => a.localeCompare(b));
    const oldest = new Date(ends[0]).getTime();
    const newest = new Date(ends[ends.length - 1]).getTime();
    const count = Math.max(1, Math.ceil((newest - oldest) / PERIOD));
    let known = new Map();
    for (let p = 0; p < count; p++) {
        const rater = new Glicko2();
        rater.knownRatings = new Map(known);
        const low = oldest + p * PERIOD;
        const high = low + PERIOD;
        const inPeriod = members.filter((r) => {
            const t = new Date(r.header["date-end"]).getTime();
            return t >= low && t < high;
        });
        known = new Map(rater.runProcessed(inPeriod).ratings);
    }
    return known;
}

function ratePool([pool, members]) {
    const elo = new ELOBasic().runProcessed(members);
    const skill = new Trueskill({ betaStart: 25 / 9 }).runProcessed(members);
    const glicko = glickoByPeriods(members);
    const players = [];
    for (const [key, e] of elo.ratings) {
        const g = glicko.get(key);
        const t = skill.ratings.get(key);
        players.push({
            player: key.slice(key.indexOf("|") + 1),
            games: e.recCount, wins: e.wins, losses: e.losses, draws: e.draws, elo: e.rating,
            glicko: g === undefined ? null : { rating: g.rating, rd: g.rd, volatility: g.volatility },
            trueskill: t === undefined ? null : { mu: t.rating, sigma: t.sigma },
        });
    }
    return { pool, rated: elo.recsRated, players };
}

process.stdout.write(JSON.stringify({ pools: pools(readRecords(files)).map(ratePool) }) + "\n");
