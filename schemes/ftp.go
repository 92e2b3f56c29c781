package schemes

import _ "locator/ftp"
