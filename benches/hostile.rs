//! `parse_args` on huge argument strings (issue 6): 1, 2, 5 and 10 MB, to show that time grows
//! linearly with the size, so a model (or anyone posing as one) cannot make parsing blow up.
//!
//! Run with `cargo bench --bench hostile`. Each group reports time and throughput per size; linear
//! growth shows as the same MB/s at every size.
//!
//! - `string`: one string field holding the whole text (with escapes and non-ASCII), the fast
//!   path: `serde_json` straight into the type.
//! - `items`: an array of small objects whose type has a `#[tool(default)]`, so every parse goes
//!   through a `serde_json::Value` with duplicate-key checks and default filling.
//! - `error_at_end`: the `items` arguments with a wrong type in the very last item, so the slow
//!   path re-reads everything to find the JSON path of the error.

use std::hint::black_box;
use std::time::Duration;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use serde::Deserialize;
use toolgen::{Tool, ToolSchema};

/// Save a note.
#[derive(Tool, Deserialize, Debug)]
#[allow(dead_code)]
struct SaveNote {
    /// Where to save it.
    path: String,
    /// The note's text.
    content: String,
}

/// Record measurements.
#[derive(Tool, Deserialize, Debug)]
#[allow(dead_code)]
struct Record {
    /// The measurements.
    items: Vec<Item>,
}

/// One measurement.
#[derive(ToolSchema, Deserialize, Debug)]
#[allow(dead_code)]
struct Item {
    label: String,
    value: u32,
    #[tool(default = "m")]
    unit: String,
}

const MB: usize = 1 << 20;

/// A `SaveNote` call of about `size` bytes.
fn note(size: usize) -> String {
    let line = "Rīga \\\"quoted\\\" text, with escapes \\u00e9 and emoji 😀.\\n";
    let content = line.repeat(size / line.len() + 1);
    format!(r#"{{"path": "notes/big.md", "content": "{content}"}}"#)
}

/// A `Record` call of about `size` bytes; with `break_last`, the last value is a string.
fn items(size: usize, break_last: bool) -> String {
    let item = r#"{"label": "temperature", "value": 21},"#;
    let mut text = String::with_capacity(size + 64);
    text.push_str(r#"{"items": ["#);
    text.push_str(&item.repeat(size / item.len() + 1));
    if break_last {
        text.push_str(r#"{"label": "last", "value": "21"}]}"#);
    } else {
        text.push_str(r#"{"label": "last", "value": 21}]}"#);
    }
    text
}

fn hostile(c: &mut Criterion) {
    let sizes = [1, 2, 5, 10];
    let mut group = c.benchmark_group("hostile");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for mb in sizes {
        let text = note(mb * MB);
        assert!(SaveNote::parse_args(&text).is_ok());
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("string", mb), &text, |b, text| {
            b.iter(|| SaveNote::parse_args(black_box(text)))
        });
    }
    for mb in sizes {
        let text = items(mb * MB, false);
        assert!(Record::parse_args(&text).is_ok());
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("items", mb), &text, |b, text| {
            b.iter(|| Record::parse_args(black_box(text)))
        });
    }
    for mb in sizes {
        let text = items(mb * MB, true);
        assert!(
            Record::parse_args(&text)
                .unwrap_err()
                .path()
                .starts_with("items[")
        );
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_with_input(BenchmarkId::new("error_at_end", mb), &text, |b, text| {
            b.iter(|| Record::parse_args(black_box(text)))
        });
    }
    group.finish();
}

criterion_group!(benches, hostile);
criterion_main!(benches);
