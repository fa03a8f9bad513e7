#[sarek::module]
mod m {
    use sarek::prelude::*;

    pub struct Counter {
        pub n: u32,
    }

    impl Counter {
        pub fn bump(&mut self) -> u32 {
            self.n += 1;
            if self.n > 10 {
                return 0;
            }
            self.n
        }

        pub fn reset(&mut self) {
            self.n = 0;
        }
    }

    #[sarek::kernel]
    pub fn returns_from_mut(cs: &mut [Counter], out: &mut [u32]) {
        let i = global_thread_id();
        out[i] = cs[i].bump();
    }

    #[sarek::kernel]
    pub fn by_path(cs: &mut [Counter]) {
        let i = global_thread_id();
        let mut c = cs[i];
        Counter::reset(c);
        cs[i] = c;
    }
}

fn main() {}
