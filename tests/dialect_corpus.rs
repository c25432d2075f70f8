//! The rewrite of a schema into each provider dialect (`toolgen-runtime/src/dialect/rewrite.rs`), by
//! [`rewrite_text`] and by [`dialect_schema`], against the results recorded in
//! `tests/golden/dialect_corpus.jsonl`: the same text on success, the same rule and path on error.
//!
//! The corpus was recorded from the const-evaluated rewrite `dialect_schema` ran before the
//! run-time one replaced it: hand-written edge cases (in every dialect), generated schemas (in the
//! three others) and generated schemas at OpenAI strict's limits (in OpenAI strict), all made below
//! from fixed seeds. The schemas of the test and example types are the goldens' job.
//!
//! One known difference is not in it: the const code widened an empty `type` list (`"type":[]`,
//! which toolgen never writes) of an optional property under OpenAI strict into `[,"null"]`, which
//! is not JSON, where the run-time rewrite writes `["null"]` ([`an_empty_type_list_widened`]). The
//! generator never writes `"type":[]`, and recording skips any output that is not JSON.

use std::collections::HashSet;
use std::fs;

use serde::Deserialize;
use serde_json::{Value, json};
use toolgen::__private::rewrite_text;
use toolgen::Dialect::{self, AnthropicStrict, Gemini, OpenAiStrict};
use toolgen::{DialectError, dialect_schema};

/// One record a line: `{"input":text,"dialect":name}` and `"output":text` or `"error":{"rule":
/// name,"path":text}`.
const CORPUS: &str = "tests/golden/dialect_corpus.jsonl";
const STRICT: &[Dialect] = &[OpenAiStrict, AnthropicStrict, Gemini];

#[derive(Deserialize)]
struct Record {
    input: String,
    dialect: String,
    /// `output` or `error`, as [`outcome`] writes it.
    #[serde(flatten)]
    outcome: Value,
}

/// A rewrite's result as a record has it: `{"output":text}` or `{"error":{"rule":_,"path":_}}`.
fn outcome(result: Result<String, DialectError>) -> Value {
    match result {
        Ok(text) => json!({ "output": text }),
        Err(e) => json!({ "error": { "rule": format!("{:?}", e.rule()), "path": e.path() } }),
    }
}

/// `text`, cut at 4000 characters for a message.
fn cut(text: &str) -> String {
    let shown: String = text.chars().take(4000).collect();
    let more = if shown.len() < text.len() { "…" } else { "" };
    format!("{shown}{more} ({} bytes)", text.len())
}

/// Every record of the corpus, by both functions. `TOOLGEN_RECORD_CORPUS=1` records the corpus
/// first (see [`record`]).
#[test]
fn the_recorded_rewrites() {
    if std::env::var_os("TOOLGEN_RECORD_CORPUS").is_some_and(|v| v == "1") {
        record();
    }
    let corpus = fs::read_to_string(CORPUS)
        .unwrap_or_else(|e| panic!("{CORPUS}: {e} (TOOLGEN_RECORD_CORPUS=1 records it)"));
    for (n, line) in corpus.lines().enumerate() {
        let record: Record = serde_json::from_str(line).expect("records are JSON");
        let dialect = Dialect::ALL
            .into_iter()
            .find(|d| format!("{d:?}") == record.dialect);
        let dialect = dialect.unwrap_or_else(|| panic!("line {}: {}", n + 1, record.dialect));
        let input = &record.input;
        for (function, got) in [
            ("rewrite_text", rewrite_text(input, dialect)),
            ("dialect_schema", dialect_schema(input, dialect)),
        ] {
            let got = outcome(got);
            assert!(
                got == record.outcome,
                "line {}, {function}, {dialect:?}\ninput: {}\nexpected: {}\ngot: {}",
                n + 1,
                cut(input),
                cut(&record.outcome.to_string()),
                cut(&got.to_string()),
            );
        }
    }
    let count = corpus.lines().count();
    assert!(count >= 1000, "{count} records in {CORPUS}");
}

/// Records the corpus: [`inputs`] in their dialects, with what `dialect_schema` makes of them
/// (where that is JSON). The corpus was recorded at the commit before "Remove the const-fn
/// dialect rewrite", where `dialect_schema` was the const-evaluated rewrite; now it is the
/// run-time one, so this records the code under test itself: do it only for a deliberate change
/// of its output, and review the diff like code.
fn record() {
    let mut lines = String::new();
    for (input, dialects) in inputs() {
        for &dialect in dialects {
            let result = dialect_schema(&input, dialect);
            if let Ok(text) = &result
                && serde_json::from_str::<Value>(text).is_err()
            {
                continue;
            }
            let result = outcome(result).to_string();
            let (input, result) = (quoted(&input), &result[1..result.len() - 1]);
            let line = format!(r#"{{"input":{input},"dialect":"{dialect:?}",{result}}}"#);
            // The line separator, at which some tools break lines, as an escape.
            lines += &line.replace('\u{2028}', r"\u2028");
            lines.push('\n');
        }
    }
    fs::write(CORPUS, lines).unwrap_or_else(|e| panic!("{CORPUS}: {e}"));
}

/// The const code's `[,"null"]` (see the module's documentation), as the run-time rewrite has it.
#[test]
fn an_empty_type_list_widened() {
    let text = r#"{"type":"object","properties":{"a":{"type":[]}}}"#;
    assert_eq!(
        rewrite_text(text, OpenAiStrict).unwrap(),
        r#"{"type":"object","properties":{"a":{"type":["null"]}},"required":["a"],"additionalProperties":false}"#
    );
}

/// The inputs of the corpus, each with the dialects it is recorded in.
fn inputs() -> Vec<(String, &'static [Dialect])> {
    let mut generator = Gen {
        rng: Rng(0x5eed_2026),
        clean: false,
    };
    let generated = (0..).map(|i| {
        generator.clean = i % 2 == 0;
        match i % 5 {
            0 => generator.schema(0),
            _ => generator.root(),
        }
    });
    // New ones of at most 250 bytes (a third), for the size of the corpus.
    let mut seen: HashSet<String> = edge_cases().into_iter().collect();
    let small = generated.filter(|text| text.len() <= 250 && seen.insert(text.clone()));
    let small = small.take(330);
    let mut rng = Rng(0x11_4175);
    let deeps: Vec<String> = (0..12).map(|_| deep(&mut rng)).collect();
    let edges = edge_cases()
        .into_iter()
        .map(|text| (text, &Dialect::ALL[..]));
    let strict = small.chain(deeps).map(|text| (text, STRICT));
    let limits = at_the_limits(&mut rng).into_iter();
    let limits = limits.map(|text| (text, &[OpenAiStrict][..]));
    edges.chain(strict).chain(limits).collect()
}

/// Hand-written inputs at the edges: repeated keys, white space, escapes in keys and paths,
/// paths longer than the 200 bytes the const code kept, numbers serde_json rewrites; and rare
/// in the generated ones: `type` lists of `object`, `integer` and `number`, a typed `const`,
/// `required` alone, a map and a tuple, `anyOf` with `null` beside a title or a description,
/// `minItems: 1`, a negative lookbehind.
fn edge_cases() -> Vec<String> {
    let long = "é".repeat(70);
    let mut cases = [
        r#"{"type":"object","properties":{"a":{"type":"string"},"a":{"type":"integer","minimum":1}},"required":["a"],"type":"object"}"#,
        " {\n \"type\" : [ \"string\" , \"null\" ] , \"minLength\" : 1.0E0 } ",
        r#"{"type":"object","properties":{"k\"q\\\n":{"type":"object","properties":{"é\u0001":{}}}}}"#,
        r#"{"type":"number","minimum":-0,"maximum":1e400,"default":1E2}"#,
        r#"{"type":"integer","maximum":1e400}"#,
        r#"{"anyOf":[{"type":"null"},{"type":"string"}],"anyOf":[{"type":"integer"}]}"#,
        r#"{"type":"object","properties":{"x":{"anyOf":[{"type":"string"}],"oneOf":[{"type":"null"}]}}}"#,
        r#"{"type":"object","properties":{"n":{"type":["integer","null"],"format":"int64"},"d":{"type":["number"],"format":"double"},"c":{"type":"string","const":"c"},"m":{"type":["object","null"],"additionalProperties":false}},"required":["n"]}"#,
        r#"{"type":"object","required":["zz"],"additionalProperties":false}"#,
        r#"{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"null"}],"title":"T"},"b":{"anyOf":[{"type":"string","description":"In."},{"type":"null"}],"description":"Out."},"c":{"type":"array","items":{"type":"string"},"minItems":1}}}"#,
        r#"{"type":"string","pattern":"(?<!x)y"}"#,
        r#"{"type":"array","prefixItems":[{"type":"string"}],"additionalProperties":{"type":"string"}}"#,
        "true",
        "false",
        "{}",
    ]
    .map(str::to_owned)
    .to_vec();
    cases.push(format!(
        r#"{{"type":"object","properties":{{"{long}":{{"type":"array","items":{{"type":"object","properties":{{"{long}":{{"type":"object","additionalProperties":true}}}}}}}}}}}}"#
    ));
    cases
}

/// Pools of values, separated by `|`, as JSON text (`quoted` when they are strings).
const TEXTS: &str = "|Plain.|A \"quoted\" C:\\path.|tab\tnew\nline|émoji 🦀|\u{7f}\u{2028}";
const KEYS: &str = "a|b|c|name|type|properties|é|k\"q|back\\slash||x.y|[]";
const FORMATS: &str = "date-time|time|date|duration|email|hostname|ipv4|ipv6|uuid|uri|\
    uri-reference|int32|int64|float|double|enum|odd\"one";
/// Regexes Anthropic strict accepts, then ones it does not (from `BAD_PATTERN` on).
const PATTERNS: &str = r#"^[a-z]+$|^a\\b$|(?:a)|(?<name>a)|\(?=|a\|\\\\|(?<x|\bword\b|(?=a)|(?<!x)y|(?<=x)|(?!z)|(\w)\1|\k<n>|\B|\\\b|\"(?=|é\b"#;
const BAD_PATTERN: usize = 8;
const NUMBERS: &str = "0|1|2|-1|1.5|-0.0|1e+300|80|255|18446744073709551615|1.0";
const VALUES: &str = r#"5|"x\\y"|"q\""|true|null|[]|[1,"a"]|{"k":"v"}|-2.5|"""#;

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap()
}

/// A JSON object's text from its members (keys unquoted, values as JSON text), in their order.
fn object(members: &[(String, String)]) -> String {
    let members: Vec<String> = members
        .iter()
        .map(|(key, value)| format!("{}:{value}", quoted(key)))
        .collect();
    format!("{{{}}}", members.join(","))
}

/// A small deterministic random number generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }

    /// One of the first `n` items of `pool` (all of them for `usize::MAX`).
    fn pick_of<'a>(&mut self, pool: &'a str, n: usize) -> &'a str {
        let items: Vec<&str> = pool.split('|').collect();
        items[self.below(items.len().min(n))]
    }

    fn pick<'a>(&mut self, pool: &'a str) -> &'a str {
        self.pick_of(pool, usize::MAX)
    }
}

/// Generated schemas: nested objects, arrays, `anyOf`/`oneOf`/`allOf`, enums, consts, formats,
/// patterns, defaults, nullable types, references, maps, tuples, and keywords in any order.
struct Gen {
    rng: Rng,
    /// Only what every dialect can express (but `$ref`s), so that all of them write a text.
    clean: bool,
}

impl Gen {
    /// 1 to 3 schemas.
    fn schemas(&mut self, depth: usize) -> Vec<String> {
        (0..1 + self.rng.below(3))
            .map(|_| self.schema(depth + 1))
            .collect()
    }

    fn schema(&mut self, depth: usize) -> String {
        if self.rng.chance(3) {
            return self.rng.pick("true|false").to_owned();
        }
        let (clean, any_enum) = (self.clean, !self.clean && self.rng.chance(30));
        // An enum's or a const's value: a string, or (not `clean`) any JSON.
        let value = |rng: &mut Rng| match any_enum {
            true => rng.pick(VALUES).to_owned(),
            false => quoted(rng.pick(KEYS)),
        };
        let mut m: Vec<(String, String)> = Vec::new();
        let mut put = |key: &str, value: String| m.push((key.to_owned(), value));
        match self.rng.below(if depth > 4 { 6 } else { 11 }) {
            kind @ 0..=2 => {
                let types = ["string", "integer|number", "boolean|null"][kind];
                put("type", quoted(self.rng.pick(types)));
            }
            3 => {
                if self.rng.chance(50) {
                    put("type", quoted("string"));
                }
                let values: Vec<String> = (0..1 + self.rng.below(3))
                    .map(|_| value(&mut self.rng))
                    .collect();
                put("enum", format!("[{}]", values.join(",")));
            }
            4 => put("const", value(&mut self.rng)),
            5 => {
                let ty = self.rng.pick("string|integer|number|object|array");
                let types = match self.rng.below(if clean { 1 } else { 4 }) {
                    0 => format!("[{},\"null\"]", quoted(ty)),
                    1 => "[\"null\"]".to_owned(),
                    _ => format!("[\"string\",{}]", quoted(ty)),
                };
                put("type", types);
                if ty == "object" {
                    let inner = self.schema(depth + 1);
                    put("properties", object(&[("p".to_owned(), inner)]));
                }
            }
            6 | 7 => {
                let props: Vec<(String, String)> = (0..self.rng.below(5))
                    .map(|_| (self.rng.pick(KEYS).to_owned(), self.schema(depth + 1)))
                    .collect();
                if clean || self.rng.chance(85) {
                    put("type", quoted("object"));
                }
                if clean || self.rng.chance(90) {
                    put("properties", object(&props));
                }
                if self.rng.chance(60) {
                    let mut required: Vec<&str> =
                        props.iter().map(|(key, _)| key.as_str()).collect();
                    required.retain(|_| self.rng.chance(60));
                    required.extend(Some("zz").filter(|_| self.rng.chance(10)));
                    put("required", serde_json::to_string(&required).unwrap());
                }
                match self.rng.below(if clean { 3 } else { 6 }) {
                    0 => put("additionalProperties", "false".to_owned()),
                    1 if !clean => put("additionalProperties", self.schema(depth + 1)),
                    _ => {}
                }
            }
            8 => {
                put("type", quoted("array"));
                if !clean && self.rng.chance(20) {
                    put(
                        "prefixItems",
                        format!("[{}]", self.schemas(depth).join(",")),
                    );
                } else {
                    put("items", self.schema(depth + 1));
                }
                for (key, pool) in [
                    ("minItems", NUMBERS),
                    ("maxItems", NUMBERS),
                    ("uniqueItems", "true|false"),
                ] {
                    if self.rng.chance(30) {
                        put(key, self.rng.pick(pool).to_owned());
                    }
                }
            }
            // An `Option<T>` as toolgen writes it, described beside the `anyOf`.
            9 if self.rng.chance(40) => {
                let branch = self.schema(depth + 1);
                put("anyOf", format!(r#"[{branch},{{"type":"null"}}]"#));
                put("description", quoted(self.rng.pick(TEXTS)));
            }
            9 => {
                let key = self.rng.pick("anyOf|anyOf|oneOf|allOf");
                let mut branches = self.schemas(depth);
                if self.rng.chance(60) {
                    let at = self.rng.below(branches.len() + 1);
                    branches.insert(at, r#"{"type":"null"}"#.to_owned());
                }
                put(key, format!("[{}]", branches.join(",")));
            }
            _ if clean => put("type", quoted("string")),
            // What some dialect cannot express: no type, a map, a reference.
            _ => match self.rng.below(3) {
                0 => {}
                1 => {
                    put("type", quoted("object"));
                    if self.rng.chance(70) {
                        put("additionalProperties", self.schema(depth + 1));
                    }
                }
                _ => put("$ref", quoted("#/$defs/D0")),
            },
        }
        self.extras(&mut m);
        if self.rng.chance(60) {
            for i in (1..m.len()).rev() {
                m.swap(i, self.rng.below(i + 1));
            }
        }
        object(&m)
    }

    /// The keywords any schema may have beside its type.
    fn extras(&mut self, m: &mut Vec<(String, String)>) {
        let r = &mut self.rng;
        let value = r.pick(VALUES).to_owned();
        let (patterns, odd) = if self.clean {
            (BAD_PATTERN, 0)
        } else {
            (usize::MAX, 3)
        };
        let candidates = [
            (30, "description", quoted(r.pick(TEXTS))),
            (8, "minLength", r.pick(NUMBERS).to_owned()),
            (8, "maxLength", r.pick(NUMBERS).to_owned()),
            (8, "minimum", r.pick(NUMBERS).to_owned()),
            (8, "maximum", r.pick(NUMBERS).to_owned()),
            (4, "exclusiveMinimum", r.pick(NUMBERS).to_owned()),
            (4, "exclusiveMaximum", r.pick(NUMBERS).to_owned()),
            (4, "multipleOf", r.pick(NUMBERS).to_owned()),
            (12, "format", quoted(r.pick(FORMATS))),
            (10, "pattern", quoted(r.pick_of(PATTERNS, patterns))),
            (15, "default", value.clone()),
            (6, "examples", format!("[{value},\"e\"]")),
            (6, "title", quoted(r.pick(TEXTS))),
            (3, "not", r#"{"enum":["x"]}"#.to_owned()),
            (3, "nullable", "true".to_owned()),
            (2, "$schema", quoted("s")),
            // What some dialect cannot express, beside what the schema has already.
            (odd, "prefixItems", r#"[{"type":"string"}]"#.to_owned()),
            (odd, "additionalProperties", "true".to_owned()),
            (odd, "$ref", quoted("#/$defs/D0")),
            (odd, "enum", "[1]".to_owned()),
        ];
        for (percent, key, value) in candidates {
            if r.chance(percent) {
                m.push((key.to_owned(), value));
            }
        }
    }

    /// A root: an object, sometimes with definitions.
    fn root(&mut self) -> String {
        let mut m = vec![("type".to_owned(), quoted("object"))];
        let props: Vec<(String, String)> = (0..1 + self.rng.below(5))
            .map(|i| (format!("p{i}"), self.schema(1)))
            .collect();
        m.push(("properties".to_owned(), object(&props)));
        if self.rng.chance(50) {
            m.push(("required".to_owned(), r#"["p0","p2"]"#.to_owned()));
        }
        if self.rng.chance(30) {
            let defs: Vec<(String, String)> = (0..1 + self.rng.below(3))
                .map(|i| (format!("D{i}"), self.schema(1)))
                .collect();
            m.push(("$defs".to_owned(), object(&defs)));
        }
        self.extras(&mut m);
        object(&m)
    }
}

/// Key characters as JSON text: plain, escaped, and of two bytes.
const KEY_CHARS: &str = r#"k|\"|\\|é|\n|\u0001"#;

/// JSON string content of exactly `len` bytes of JSON text, starting with `prefix`.
fn filled(rng: &mut Rng, prefix: &str, len: usize) -> String {
    let mut text = prefix.to_owned();
    while text.len() < len {
        let c = rng.pick(KEY_CHARS);
        text.push_str(if text.len() + c.len() <= len { c } else { "k" });
    }
    text
}

/// Objects nested 9 to 12 deep (through `items` and `anyOf` too), at the root, in a
/// definition (where the count starts afresh), or as the root.
fn deep(rng: &mut Rng) -> String {
    let mut schema = r#"{"type":"string"}"#.to_owned();
    let mut objects = 9 + rng.below(4);
    while objects > 0 {
        schema = match rng.below(4) {
            0 => format!(r#"{{"type":"array","items":{schema}}}"#),
            1 => format!(r#"{{"anyOf":[{schema},{{"type":"null"}}]}}"#),
            _ => {
                objects -= 1;
                let required = rng.pick(r#"|,"required":["x"]"#);
                format!(r#"{{"type":"object","properties":{{"x":{schema}}}{required}}}"#)
            }
        };
    }
    match rng.below(3) {
        0 => format!(r#"{{"type":"object","properties":{{"d":{schema}}}}}"#),
        1 => format!(
            r##"{{"type":"object","properties":{{"d":{{"$ref":"#/$defs/D"}}}},"$defs":{{"D":{schema}}}}}"##
        ),
        _ => schema,
    }
}

/// `n` properties named in hex, which allow any value.
fn anything(n: usize) -> String {
    let props: Vec<String> = (0..n).map(|p| format!(r#""{p:x}":true"#)).collect();
    props.join(",")
}

/// A property `b` whose `const` has `n` numbers, each `1000000000000000.0` as JSON text: 19n + 2
/// characters to count, at a fifth of their size.
fn bulk(n: usize) -> String {
    format!(r#""b":{{"const":[{}]}}"#, vec!["1e15"; n].join(","))
}

/// A schema whose properties (`kind` 0), enum values (1) or characters (2: of names, enum and
/// const values, as JSON text) total `total`, then a definition that allows any value: the error
/// of OpenAI strict's limit where the total crosses it, if it does, else `AnyValue` there.
fn near_a_limit(rng: &mut Rng, kind: usize, total: usize) -> String {
    let (mut props, mut defs) = (Vec::new(), Vec::new());
    let mut left = total;
    if kind == 2 {
        // The bulk, then pieces of each kind in turn, of 8 to 207 bytes, the last at least 61.
        let n = (total - 900 - rng.below(1500)) / 19;
        props.push(bulk(n));
        left -= 19 * n + 2;
    }
    while left > 0 {
        let i = props.len() + defs.len();
        let piece = match kind {
            // An object of `n` properties: `n + 1` in all.
            0 => {
                let n = rng.below(left.min(3000));
                left -= n + 1;
                let props = anything(n);
                format!(r#""o{i}":{{"type":"object","properties":{{{props}}}}}"#)
            }
            1 => {
                let n = 1 + rng.below(left);
                left -= n;
                let values: Vec<String> = (0..n).map(|v| format!(r#""v{v}""#)).collect();
                format!(r#""e{i}":{{"enum":[{}]}}"#, values.join(","))
            }
            _ => {
                let prefix = format!("t{i}");
                let n = if left < 120 {
                    left
                } else {
                    8 + rng.below((left - 68).min(200))
                };
                left -= n;
                let (name, schema) = match i % 4 {
                    0 | 1 => (filled(rng, &prefix, n), r#"{"type":"string"}"#.to_owned()),
                    2 => {
                        let value = filled(rng, "", n - prefix.len() - 2);
                        (prefix, format!(r#"{{"const":"{value}"}}"#))
                    }
                    _ => {
                        let value = filled(rng, "", n - prefix.len() - 4);
                        (prefix, format!(r#"{{"type":"string","enum":["{value}"]}}"#))
                    }
                };
                format!(r#""{name}":{schema}"#)
            }
        };
        if kind == 2 && i % 4 == 1 {
            defs.push(piece)
        } else {
            props.push(piece)
        }
    }
    defs.push(r#""":{}"#.to_owned());
    let (props, defs) = (props.join(","), defs.join(","));
    format!(r#"{{"type":"object","properties":{{{props}}},"$defs":{{{defs}}}}}"#)
}

/// Schemas at OpenAI strict's limits, each reached or crossed by one; and two limits crossed at
/// once, where the order of the checks decides (which crossing one alone shows too).
fn at_the_limits(rng: &mut Rng) -> Vec<String> {
    let ones = vec!["1"; 1001].join(",");
    let (props, bulk) = (anything(4999), bulk(6300));
    let object = r#"{"type":"object","properties":"#;
    vec![
        near_a_limit(rng, 0, 5000),
        near_a_limit(rng, 1, 1000),
        near_a_limit(rng, 1, 1001),
        near_a_limit(rng, 2, 120_000),
        near_a_limit(rng, 2, 120_001),
        // Properties and enum values; enum values and characters.
        format!(r#"{object}{{"o":{object}{{{props}}}}},"e":{{"enum":[{ones}]}}}}}}"#),
        format!(r#"{object}{{{bulk},"e":{{"enum":[{ones}]}}}}}}"#),
    ]
}
