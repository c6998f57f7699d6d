//! The result reader and `merge`: any text is refused with an error or
//! read; what is read writes back and reads the same, and merges to its
//! count plus the solutions above the cut when it is the only shard.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(result) = exactly::records::parse_result(text) {
        let written = exactly::records::write_result(&result).expect("its total fits");
        let again = exactly::records::parse_result(&written).expect("written result parses");
        assert_eq!(again, result);
        if let Ok(total) = exactly::records::merge(std::slice::from_ref(&result)) {
            assert_eq!(
                Some(total),
                result
                    .total()
                    .and_then(|t| t.checked_add(result.plan.above))
            );
        }
    }
});
