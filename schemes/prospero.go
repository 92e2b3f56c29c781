package schemes

import _ "locator/prospero"
