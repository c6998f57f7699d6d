//! The checkpoint reader: any text is refused with an error or read; what
//! is read writes back and reads the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(checkpoint) = exactly::records::parse_checkpoint(text) {
        let mut written = checkpoint.header.write();
        for r in &checkpoint.records {
            written.push_str(&checkpoint.header.record(r));
        }
        let again =
            exactly::records::parse_checkpoint(&written).expect("written checkpoint parses");
        assert_eq!(again.header, checkpoint.header);
        assert_eq!(again.records, checkpoint.records);
        assert!(!again.torn);
    }
});
