#!/usr/bin/env bash
# Instructions one `parse_args` takes, against serde_json on the same arguments: exact counts
# (callgrind), where timings on a shared machine move by tens of percent between runs.
#
# Usage (from the repository root; needs valgrind):
#
#     bash benches/parse_cost.sh
#     RUNS=500 bash benches/parse_cost.sh
#
# It builds `benches/nulls.rs` (its 20-card `emit_flashcards` call in OpenAI strict-mode form;
# the cases are described there) and runs each case RUNS times (default 200) under
# `valgrind --tool=callgrind`, once more with no case (building the texts only), and prints the
# instructions of one parse: (case - none) / RUNS. The ratios compare toolgen with serde_json:
#
#   same text     toolgen_parse_args / serde_json_from_str_same_text: the strict text, serde
#                 reading it into the same types with every defaulted field an `Option`; also
#                 for the types whose defaults are `#[tool(default = ..)]` values
#   set           toolgen_parse_args_set / serde_json_from_str_same_text_set: the strict text
#                 with a set of tags on every card, whose repeats toolgen refuses
#   flattened enum  toolgen_parse_args_flattened_enum / its serde_json_from_str_same_text_*:
#                 mind-map operations with a tagged enum flattened in, defaults inside
#   prestripped   toolgen_parse_args / serde_json_from_str_prestripped: serde reading a shorter
#                 text, the defaulted fields' `null`s taken out beforehand (stricter)
#   no nulls      toolgen_parse_args_no_nulls / serde_json_from_str_no_nulls: the same text
#                 without any `null` (what parse_args hands to serde_json alone)
#   dynamic       toolgen_dynamic_parse_args / serde_json_from_str_same_text: the strict text
#                 parsed by a `DynamicTool` made from `emit_checked_flashcards`' standard schema
#                 (read into a `Value`, `null`s dropped, checked against the schema)
#   answer        toolgen_structured_answer / serde_json_answer: the strict text as the answer
#                 of an OpenAI Chat completion (a `serde_json::Value`), read by
#                 `Structured::parse` against `message.content` taken by hand and read by serde
#
# and the parses that rmcp's and rig's APIs force before toolgen's (each step simulated with
# serde_json; `benches/nulls.rs` cites the lines of rmcp and rig each stands for):
#
#   constrained   toolgen_parse_args_constrained / serde_json_from_str_no_nulls: the text
#                 without `null`s read into cards with constraints (`length`, `range`) and nothing
#                 to strip or fill in, which serde does not check
#   rmcp extractor  rmcp_toolgen_parse_value / rmcp_serde_from_value: the strict text read into
#                 the `serde_json::Map` rmcp hands an extractor, then toolgen's `Parameters<T>`
#                 (`Tool::parse_value`) against rmcp's (`serde_json::from_value`, `Option` types)
#   rmcp map      rmcp_toolgen_parse_value / toolgen_parse_args: toolgen's `Parameters<T>`, map
#                 step included, against `parse_args` of the text alone (rmcp_map: the map alone)
#   rig           rig_toolgen_parse_args / toolgen_parse_args: rig 0.44's steps (text -> `Value`
#                 -> text -> `Value`) and `RigTools`' parse (`Value` -> text -> `parse_args`),
#                 against `parse_args` of the text alone (rig_steps: rig's steps alone;
#                 rig_toolgen_parse_value: rig's steps, then `Tool::parse_value` of rig's `Value`)
set -euo pipefail

runs=${RUNS:-200}
command -v valgrind >/dev/null || { echo "parse_cost.sh needs valgrind" >&2; exit 1; }

binary=$(cargo bench --bench nulls --no-run --message-format=json 2>/dev/null \
    | python3 -c '
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message.get("reason") == "compiler-artifact" and message["target"]["name"] == "nulls" \
            and message.get("executable"):
        print(message["executable"])
')
[ -n "$binary" ] || { echo "the nulls bench did not build" >&2; exit 1; }

count() {
    NULLS_CASE=$1 NULLS_RUNS=$runs valgrind --tool=callgrind --callgrind-out-file=/dev/null \
        "$binary" 2>&1 | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

none=$(count none)
declare -A per
cases="toolgen_parse_args toolgen_parse_args_tool_defaults serde_json_from_str_same_text serde_json_from_str_prestripped
toolgen_parse_args_prestripped value_strip_deserialize
toolgen_parse_args_set serde_json_from_str_same_text_set
toolgen_parse_args_flattened_enum serde_json_from_str_same_text_flattened_enum
toolgen_parse_args_no_nulls serde_json_from_str_no_nulls toolgen_parse_args_constrained
toolgen_dynamic_parse_args
toolgen_structured_answer serde_json_answer
rmcp_map rmcp_serde_from_value rmcp_toolgen_parse_value
rig_steps rig_toolgen_parse_args rig_toolgen_parse_value"
printf '%-44s %12s\n' case 'instructions'
for case in $cases; do
    total=$(count "$case")
    per[$case]=$(( (total - none) / runs ))
    printf '%-44s %12d\n' "$case" "${per[$case]}"
done
ratio() { python3 -c "print(f'{$1 / $2:.3f}x')"; }
echo
echo "same text    $(ratio "${per[toolgen_parse_args]}" "${per[serde_json_from_str_same_text]}")"
echo "same text, #[tool(default)]  $(ratio "${per[toolgen_parse_args_tool_defaults]}" "${per[serde_json_from_str_same_text]}")"
echo "same text, a set per card  $(ratio "${per[toolgen_parse_args_set]}" "${per[serde_json_from_str_same_text_set]}")"
echo "same text, a flattened enum  $(ratio "${per[toolgen_parse_args_flattened_enum]}" "${per[serde_json_from_str_same_text_flattened_enum]}")"
echo "prestripped  $(ratio "${per[toolgen_parse_args]}" "${per[serde_json_from_str_prestripped]}")"
echo "no nulls     $(ratio "${per[toolgen_parse_args_no_nulls]}" "${per[serde_json_from_str_no_nulls]}")"
echo "constrained  $(ratio "${per[toolgen_parse_args_constrained]}" "${per[serde_json_from_str_no_nulls]}")"
echo "dynamic      $(ratio "${per[toolgen_dynamic_parse_args]}" "${per[serde_json_from_str_same_text]}")"
echo "answer       $(ratio "${per[toolgen_structured_answer]}" "${per[serde_json_answer]}")"
echo "rmcp extractor  $(ratio "${per[rmcp_toolgen_parse_value]}" "${per[rmcp_serde_from_value]}")"
echo "rmcp map     $(ratio "${per[rmcp_toolgen_parse_value]}" "${per[toolgen_parse_args]}")"
echo "rig          $(ratio "${per[rig_toolgen_parse_args]}" "${per[toolgen_parse_args]}")"
