//! Running a call (issue 12): what the handler layer adds to parsing. A small call of a tool
//! whose handler returns at once, in one criterion group so the numbers compared come from the
//! same run:
//!
//! - `call/parse_call`: `Tools::parse_call` alone: the name looked up, the arguments parsed.
//! - `call/parse_render`: the same, then the result rendered for OpenAI Chat by hand (what a
//!   user's own `match` does).
//! - `call/run_call_render`: `toolgen::run_call` (parse, dispatch to the handler, its output
//!   serialized, panics caught) and the same rendering.
//! - `call/runner_one_call`: `Runner::run` of a one-call turn and `Turn::messages` (per-call
//!   cancellation, the retry count, the messages), with no timeout.
//!
//! Run with `cargo bench --bench dispatch -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use serde::{Deserialize, Serialize};
use toolgen::{
    Cancellation, Handler, Invocation, Provider, Runner, Tool, ToolCall, ToolError, ToolResult,
    ToolSet, run_call,
};

/// Get the forecast for a city.
#[derive(Tool, Deserialize)]
struct GetForecast {
    city: String,
    days: u8,
}

#[derive(Serialize, toolgen::ToolSchema)]
struct Forecast {
    city: String,
    days: u8,
    celsius: f64,
}

impl Handler<()> for GetForecast {
    type Output = Forecast;
    async fn handle(self, _: &(), _: &Invocation<'_>) -> Result<Forecast, ToolError> {
        Ok(Forecast {
            city: self.city,
            days: self.days,
            celsius: 21.5,
        })
    }
}

#[derive(ToolSet)]
enum Tools {
    Forecast(GetForecast),
}

/// Polls a future that is ready at once (the handlers here never wait).
fn ready<F: std::future::Future>(future: F) -> F::Output {
    let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
    let mut future = std::pin::pin!(future);
    loop {
        if let std::task::Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
    }
}

fn bench(c: &mut Criterion) {
    let call = ToolCall::new("get_forecast", r#"{"city":"Riga","days":3}"#).with_id("call_1");
    let cancellation = Cancellation::new();
    let mut group = c.benchmark_group("call");
    group.bench_function("parse_call", |b| {
        b.iter(|| Tools::parse_call(black_box(&call)).is_ok())
    });
    group.bench_function("parse_render", |b| {
        b.iter(|| {
            let result = match Tools::parse_call(black_box(&call)) {
                Ok(Tools::Forecast(f)) => ToolResult::json(serde_json::json!({
                    "city": f.city, "days": f.days, "celsius": 21.5
                })),
                Err(error) => ToolResult::from(error),
            };
            result.render(Provider::OpenAiChat, &call)
        })
    });
    group.bench_function("run_call_render", |b| {
        b.iter(|| {
            let result = ready(run_call::<Tools, ()>(
                &(),
                black_box(&call),
                Provider::OpenAiChat,
                &cancellation,
            ));
            result.render(Provider::OpenAiChat, &call)
        })
    });
    let mut runner = Runner::<Tools, ()>::new(());
    let calls = [call.clone()];
    group.bench_function("runner_one_call", |b| {
        b.iter(|| ready(runner.run(Provider::OpenAiChat, black_box(&calls))).messages())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
