//! Parse → write → parse: any text either fails with an error or round-trips.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    if let Ok(problem) = exactly::format::parse_dlx(text) {
        let mut out = Vec::new();
        exactly::format::write_dlx(&problem, &mut out).expect("write to memory");
        let again = exactly::format::parse_dlx(std::str::from_utf8(&out).expect("utf-8"))
            .expect("written text parses");
        assert_eq!(again.num_items(), problem.num_items());
        assert_eq!(again.num_options(), problem.num_options());
        for o in problem.option_ids() {
            assert_eq!(again.option_text(o), problem.option_text(o));
        }
    }
});
