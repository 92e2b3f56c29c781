package schemes

import _ "locator/nntp"
