// `ToolSchema` written by hand, as toolgen before the seal allowed: refused with the way to
// describe such a type instead.
use toolgen::ToolSchema;

struct Email(String);

impl ToolSchema for Email {}

fn main() {
    let _ = Email(String::new()).0;
}
