//! The plan reader: any text is refused with an error or read; what is read
//! writes back to the same text (the writer is the only way to a good
//! checksum).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(plan) = exactly::records::parse_plan(text) {
        let again = exactly::records::parse_plan(&exactly::records::write_plan(&plan))
            .expect("written plan parses");
        assert_eq!(again, plan);
    }
});
